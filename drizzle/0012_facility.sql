CREATE TABLE "facility_holds" (
	"kind" text NOT NULL,
	"value" text NOT NULL,
	"is_draining" boolean DEFAULT false NOT NULL,
	"held_by" text NOT NULL,
	"held_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "facility_holds_kind_value_pk" PRIMARY KEY("kind","value")
);
--> statement-breakpoint
CREATE TABLE "node_facility" (
	"node_id" text PRIMARY KEY NOT NULL,
	"labels" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"cordon" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
