CREATE TABLE "node_engine_builds" (
	"node_id" text PRIMARY KEY NOT NULL,
	"build" text NOT NULL,
	"set_by" text NOT NULL,
	"set_at" timestamp with time zone DEFAULT now() NOT NULL
);
