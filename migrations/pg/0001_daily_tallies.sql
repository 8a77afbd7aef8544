-- daily_tallies (server/db/pg/schema.ts) kept by the database, as in SQLite (migrations/0002):
-- a daily attempt counts once it has a rank key (it has ended), under its cards home.
CREATE FUNCTION daily_tallies_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'UPDATE' AND old.day IS NOT NULL AND old.rank_key IS NOT NULL THEN
		UPDATE daily_tallies SET finished = finished - 1 WHERE day = old.day AND foundations = old.foundations;
	END IF;
	IF new.day IS NOT NULL AND new.rank_key IS NOT NULL THEN
		INSERT INTO daily_tallies (day, foundations, finished) VALUES (new.day, new.foundations, 1)
		ON CONFLICT (day, foundations) DO UPDATE SET finished = daily_tallies.finished + 1;
	END IF;
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER daily_tallies_insert AFTER INSERT ON games
FOR EACH ROW WHEN (new.day IS NOT NULL AND new.rank_key IS NOT NULL)
EXECUTE FUNCTION daily_tallies_count();
--> statement-breakpoint
CREATE TRIGGER daily_tallies_update AFTER UPDATE OF rank_key, foundations, day ON games
FOR EACH ROW WHEN (
	(old.day IS NOT NULL AND old.rank_key IS NOT NULL OR new.day IS NOT NULL AND new.rank_key IS NOT NULL)
	AND (old.rank_key IS DISTINCT FROM new.rank_key OR old.foundations IS DISTINCT FROM new.foundations OR old.day IS DISTINCT FROM new.day)
)
EXECUTE FUNCTION daily_tallies_count();
