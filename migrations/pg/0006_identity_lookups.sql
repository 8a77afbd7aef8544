CREATE INDEX "players_created" ON "players" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "race_entries_player" ON "race_entries" USING btree ("player_id");--> statement-breakpoint
CREATE INDEX "races_creator" ON "races" USING btree ("creator_id");--> statement-breakpoint
CREATE INDEX "series_creator" ON "series" USING btree ("creator_id");