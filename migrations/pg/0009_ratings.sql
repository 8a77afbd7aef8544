-- Ratings (server/ratings/): as migrations/0010_ratings.sql for SQLite.
CREATE TABLE "rated_races" (
	"race_id" integer PRIMARY KEY NOT NULL,
	"applied_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rating_changes" (
	"race_id" integer NOT NULL,
	"player_id" integer NOT NULL,
	"variant" text NOT NULL,
	"mu_before" double precision NOT NULL,
	"sigma_before" double precision NOT NULL,
	"mu_after" double precision NOT NULL,
	"sigma_after" double precision NOT NULL,
	"at" bigint NOT NULL,
	CONSTRAINT "rating_changes_race_id_player_id_pk" PRIMARY KEY("race_id","player_id")
);
--> statement-breakpoint
CREATE TABLE "ratings" (
	"player_id" integer NOT NULL,
	"variant" text NOT NULL,
	"mu" double precision NOT NULL,
	"sigma" double precision NOT NULL,
	"games" integer NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "ratings_player_id_variant_pk" PRIMARY KEY("player_id","variant")
);
--> statement-breakpoint
ALTER TABLE "races" ADD COLUMN "rated" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "rated_races" ADD CONSTRAINT "rated_races_race_id_races_id_fk" FOREIGN KEY ("race_id") REFERENCES "public"."races"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rating_changes" ADD CONSTRAINT "rating_changes_race_id_races_id_fk" FOREIGN KEY ("race_id") REFERENCES "public"."races"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rating_changes" ADD CONSTRAINT "rating_changes_player_id_players_id_fk" FOREIGN KEY ("player_id") REFERENCES "public"."players"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ratings" ADD CONSTRAINT "ratings_player_id_players_id_fk" FOREIGN KEY ("player_id") REFERENCES "public"."players"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "rating_changes_player" ON "rating_changes" USING btree ("player_id","at");--> statement-breakpoint
CREATE INDEX "ratings_board" ON "ratings" USING btree ("variant","mu");