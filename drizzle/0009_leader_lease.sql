CREATE TABLE "leader_lease" (
	"name" text PRIMARY KEY NOT NULL,
	"owner" text NOT NULL,
	"owner_name" text NOT NULL,
	"acquired_at" timestamp with time zone DEFAULT now() NOT NULL,
	"renewed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
