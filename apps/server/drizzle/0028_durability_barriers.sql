CREATE TABLE "durability_barriers" (
	"instance" text PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
