CREATE TABLE "pool_entries" (
	"player_id" integer PRIMARY KEY NOT NULL,
	"variant" text NOT NULL,
	"rating" integer,
	"joined_at" bigint NOT NULL,
	"race_id" integer
);
--> statement-breakpoint
ALTER TABLE "races" ADD COLUMN "listed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "pool_entries" ADD CONSTRAINT "pool_entries_player_id_players_id_fk" FOREIGN KEY ("player_id") REFERENCES "public"."players"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pool_entries" ADD CONSTRAINT "pool_entries_race_id_races_id_fk" FOREIGN KEY ("race_id") REFERENCES "public"."races"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pool_entries_variant" ON "pool_entries" USING btree ("variant","joined_at");