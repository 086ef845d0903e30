CREATE TABLE "federation_peers" (
	"name" text PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"key_sealed" text NOT NULL,
	"sends_tags" boolean DEFAULT false NOT NULL,
	"models" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"synced_at" timestamp with time zone,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "residency" text DEFAULT 'any' NOT NULL;