ALTER TABLE "games" ADD COLUMN "ghost_of" integer;--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "redeal_from" integer;--> statement-breakpoint
ALTER TABLE "games" ADD CONSTRAINT "games_ghost_of_games_id_fk" FOREIGN KEY ("ghost_of") REFERENCES "public"."games"("id") ON DELETE no action ON UPDATE no action;