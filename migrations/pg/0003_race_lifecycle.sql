ALTER TABLE "race_entries" ADD COLUMN "gone_since" bigint;--> statement-breakpoint
ALTER TABLE "race_entries" ADD COLUMN "rematch" text;--> statement-breakpoint
ALTER TABLE "races" ADD COLUMN "lobby_closes_at" bigint;--> statement-breakpoint
ALTER TABLE "races" ADD COLUMN "cap_at" bigint;--> statement-breakpoint
ALTER TABLE "races" ADD COLUMN "closed_reason" text;--> statement-breakpoint
ALTER TABLE "races" ADD COLUMN "rematch_of" integer;