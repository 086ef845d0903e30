CREATE TABLE "model_status" (
	"name" text PRIMARY KEY NOT NULL,
	"consecutive_failures" integer DEFAULT 0 NOT NULL,
	"is_parked" boolean DEFAULT false NOT NULL,
	"last_error" text,
	"revision" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "models" (
	"name" text PRIMARY KEY NOT NULL,
	"definition" jsonb NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	"fallbacks" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text DEFAULT 'system' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "replicas" (
	"id" text PRIMARY KEY NOT NULL,
	"model" text NOT NULL,
	"profile" text NOT NULL,
	"model_revision" integer NOT NULL,
	"node_id" text NOT NULL,
	"gpu_indexes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"engine" text NOT NULL,
	"phase" text NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"host" text,
	"port" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"phase_changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sealed_secrets" (
	"name" text PRIMARY KEY NOT NULL,
	"sealed" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "replicas_model_idx" ON "replicas" USING btree ("model");--> statement-breakpoint
CREATE INDEX "replicas_node_idx" ON "replicas" USING btree ("node_id");