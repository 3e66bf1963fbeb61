ALTER TABLE "sites" ALTER COLUMN "payment_method_changed_at" SET DEFAULT now();--> statement-breakpoint
UPDATE "sites" SET "payment_method_changed_at" = now() WHERE "payment_method_changed_at" IS NULL;--> statement-breakpoint
ALTER TABLE "sites" ALTER COLUMN "payment_method_changed_at" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "agencies" ADD COLUMN "status" text DEFAULT 'active' NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "cpm_rate" bigint DEFAULT 0 NOT NULL;