CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"prefix" text NOT NULL,
	"key_hash" text NOT NULL,
	"owner" text NOT NULL,
	"models" text[] NOT NULL,
	"requests_per_minute" integer,
	"tokens_per_minute" integer,
	"concurrent_max" integer,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	CONSTRAINT "api_keys_prefix_unique" UNIQUE("prefix")
);
--> statement-breakpoint
CREATE TABLE "usage_records" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"key_id" text NOT NULL,
	"owner" text NOT NULL,
	"model" text NOT NULL,
	"endpoint" text NOT NULL,
	"replica_id" text,
	"request_id" text NOT NULL,
	"prompt_tokens" integer NOT NULL,
	"completion_tokens" integer NOT NULL,
	"latency_ms" integer NOT NULL,
	"ttft_ms" integer,
	"status" integer NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "api_keys_owner_idx" ON "api_keys" USING btree ("owner");--> statement-breakpoint
CREATE INDEX "usage_records_at_idx" ON "usage_records" USING btree ("at");--> statement-breakpoint
CREATE INDEX "usage_records_owner_at_idx" ON "usage_records" USING btree ("owner","at");