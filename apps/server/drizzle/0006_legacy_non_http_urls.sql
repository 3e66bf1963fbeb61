-- URLs that are rendered or redirected to are http(s) only (the contract's httpUrl). Rows saved before
-- that rule must still pass the answer schemas: optional links are cleared, required ones point to a
-- reserved never-resolving host and their item is switched off until its owner sets a real URL.
UPDATE "sites" SET "default_advertorial_url" = NULL WHERE "default_advertorial_url" !~* '^https?://';--> statement-breakpoint
UPDATE "sites" SET "parser" = jsonb_set("parser", '{rss_url}', 'null'::jsonb)
  WHERE jsonb_typeof("parser"->'rss_url') = 'string' AND "parser"->>'rss_url' !~* '^https?://';--> statement-breakpoint
UPDATE "sites" SET "parser" = jsonb_set("parser", '{image_prefix}', to_jsonb('https:' || ("parser"->>'image_prefix')))
  WHERE "parser"->>'image_prefix' LIKE '//%';--> statement-breakpoint
UPDATE "sites" SET "parser" = jsonb_set("parser", '{image_prefix}', '""'::jsonb)
  WHERE "parser"->>'image_prefix' <> '' AND "parser"->>'image_prefix' !~* '^https?://';--> statement-breakpoint
UPDATE "widgets" SET "marketplace_url" = NULL WHERE "marketplace_url" !~* '^https?://';--> statement-breakpoint
UPDATE "campaigns" SET "track_urls" = COALESCE(
    (SELECT jsonb_agg(u) FROM jsonb_array_elements_text("track_urls") AS u WHERE u ~* '^https?://'),
    '[]'::jsonb)
  WHERE EXISTS (SELECT 1 FROM jsonb_array_elements_text("track_urls") AS u WHERE u !~* '^https?://');--> statement-breakpoint
UPDATE "banners" SET "url" = 'https://invalid.invalid/', "status" = 'inactive' WHERE "url" !~* '^https?://';--> statement-breakpoint
UPDATE "promotions" SET "url" = 'https://invalid.invalid/', "status" = 'inactive' WHERE "url" !~* '^https?://';--> statement-breakpoint
UPDATE "promotion_pages" SET "url" = 'https://invalid.invalid/', "status" = 'inactive' WHERE "url" !~* '^https?://';
