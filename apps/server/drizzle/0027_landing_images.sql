CREATE TABLE "landing_images" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"landing_id" bigint NOT NULL,
	"key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "landing_images" ADD CONSTRAINT "landing_images_landing_id_landings_id_fk" FOREIGN KEY ("landing_id") REFERENCES "public"."landings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "landing_images_landing_idx" ON "landing_images" USING btree ("landing_id");--> statement-breakpoint
CREATE UNIQUE INDEX "landing_images_key" ON "landing_images" USING btree ("key");--> statement-breakpoint
-- images uploaded before this table existed: the ones a landing's page shows are its own (the key starts with its id)
INSERT INTO "landing_images" ("landing_id", "key")
SELECT DISTINCT l."id", 'landings/' || m[1]
FROM "landings" l, regexp_matches(l."html", 'uploads/landings/([0-9]+-[0-9a-f]{16}\.[a-z0-9]{1,8})', 'g') AS m
WHERE l."html" IS NOT NULL AND split_part(m[1], '-', 1) = l."id"::text
ON CONFLICT DO NOTHING;
