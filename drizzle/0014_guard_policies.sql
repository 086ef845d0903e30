CREATE TABLE "guard_policies" (
	"name" text PRIMARY KEY NOT NULL,
	"applies_to" text[] NOT NULL,
	"stages" text[] NOT NULL,
	"checks" text[] NOT NULL,
	"judge_model" text,
	"fail" text NOT NULL,
	"budget_ms" integer NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
