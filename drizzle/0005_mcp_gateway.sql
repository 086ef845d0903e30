CREATE TABLE "mcp_grants" (
	"subject" text NOT NULL,
	"server" text NOT NULL,
	"tools" text[] NOT NULL,
	"granted_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mcp_grants_subject_server_pk" PRIMARY KEY("subject","server")
);
--> statement-breakpoint
CREATE TABLE "mcp_servers" (
	"name" text PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"description" text,
	"timeout_ms" integer,
	"calls_per_minute" integer,
	"headers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"is_enabled" boolean DEFAULT true NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mcp_grants" ADD CONSTRAINT "mcp_grants_server_mcp_servers_name_fk" FOREIGN KEY ("server") REFERENCES "public"."mcp_servers"("name") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mcp_grants_server_idx" ON "mcp_grants" USING btree ("server");