DROP INDEX "games_daily_board";--> statement-breakpoint
CREATE INDEX "games_daily_board" ON "games" USING btree ("day","rank_key","id") WHERE "games"."day" is not null;