CREATE TABLE "control_planes" (
	"owner" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"api_url" text NOT NULL,
	"peer_url" text NOT NULL,
	"agent_urls" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"version" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
