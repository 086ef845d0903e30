CREATE TABLE "replica_shards" (
	"replica_id" text NOT NULL,
	"rank" integer NOT NULL,
	"node_id" text NOT NULL,
	"gpu_indexes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"phase" text NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"phase_changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "replica_shards_replica_id_rank_pk" PRIMARY KEY("replica_id","rank")
);
--> statement-breakpoint
CREATE TABLE "quotas" (
	"scope" text PRIMARY KEY NOT NULL,
	"guarantee" jsonb NOT NULL,
	"limit" jsonb,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text DEFAULT 'system' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "replica_shards" ADD CONSTRAINT "replica_shards_replica_id_replicas_id_fk" FOREIGN KEY ("replica_id") REFERENCES "public"."replicas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "replica_shards_node_idx" ON "replica_shards" USING btree ("node_id");