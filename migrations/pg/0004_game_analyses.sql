CREATE TABLE "game_analyses" (
	"game_id" integer PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"analysis" jsonb,
	"reason" text,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "game_analyses" ADD CONSTRAINT "game_analyses_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE no action ON UPDATE no action;