package arena

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/konanezero/konane/rules"
)

func TestReport(t *testing.T) {
	sprt := SPRT{Elo0: 0, Elo1: 50, Alpha: 0.05, Beta: 0.05}
	cfg := MatchConfig{Board: rules.SquareBoard(4), Games: 4, Parallel: 2, RandomPlies: 1, Seed: 3, SPRT: &sprt}
	res, err := Run(context.Background(), cfg, factories(t, "random", "greedy:name=g"))
	if err != nil {
		t.Fatal(err)
	}
	rep := NewReport(res, 0, 1)
	if rep.RatingsErr != nil {
		t.Fatal(rep.RatingsErr)
	}
	var text strings.Builder
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"arena: 4x4, round robin of 2 players, 4 games per pair, 1 random plies after the removals, seed 3, sprt elo0=0 elo1=50 alpha=0.05 beta=0.05",
		"games: 4 played, ",
		"random  vs  g",
		"sprt of g: continue",
		"Elo (maximum likelihood, random = 0, prior 1 virtual draws per pair)",
		"rank  player  Elo",
		"anchor",
	} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, text.String())
		}
	}

	dir := t.TempDir()
	if err := rep.Save(dir); err != nil {
		t.Fatal(err)
	}
	f, _ := os.Open(filepath.Join(dir, "results.csv"))
	rows, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil || len(rows) != 2 || rows[0][0] != "player_a" || rows[1][0] != "random" || rows[1][1] != "g" || rows[1][2] != "4" {
		t.Errorf("results.csv: %v %v", rows, err)
	}
	f, _ = os.Open(filepath.Join(dir, "ratings.csv"))
	rows, err = csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil || len(rows) != 3 || rows[1][0] != "random" || rows[1][1] != "0.0" || rows[2][0] != "g" {
		t.Errorf("ratings.csv: %v %v", rows, err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var j struct {
		Size     int      `json:"size"`
		Board    string   `json:"board"`
		Seed     uint64   `json:"seed"`
		Players  []string `json:"players"`
		Played   int      `json:"games_played"`
		Distinct int      `json:"distinct_games"`
		Pairs    []struct {
			WinsA, WinsB int
			Sprt         string `json:"sprt"`
		} `json:"pairs"`
		Ratings []struct {
			Elo float64 `json:"elo"`
		} `json:"ratings"`
		Sprt struct{ Elo1 float64 } `json:"sprt"`
	}
	if err := json.Unmarshal(data, &j); err != nil {
		t.Fatal(err)
	}
	if j.Size != 4 || j.Board != "4x4" || j.Seed != 3 || len(j.Players) != 2 || j.Played != 4 || j.Distinct != res.Distinct() ||
		len(j.Pairs) != 1 || j.Pairs[0].Sprt != "continue" || len(j.Ratings) != 2 || j.Ratings[1].Elo != rep.Ratings[1].Elo || j.Sprt.Elo1 != 50 {
		t.Errorf("results.json: %s", data)
	}
	for _, g := range res.Games {
		rec, err := rules.ReadRecordFile(filepath.Join(dir, "games", fmt.Sprintf("%05d.txt", g.Index+1)))
		if err != nil {
			t.Fatal(err)
		}
		if rec.Tag("Black") != res.Names[g.Black] || len(rec.Moves) != len(g.Moves) {
			t.Errorf("record of game %d: %+v", g.Index+1, rec)
		}
		if w, ok := rec.Winner(); !ok || w != g.Winner {
			t.Errorf("record of game %d: winner %v", g.Index+1, w)
		}
	}
}

func TestReportWithoutRatings(t *testing.T) {
	res := &Results{Config: MatchConfig{Board: rules.SquareBoard(4), Games: 2}, Names: []string{"a", "b"}, Pairs: []Pair{{A: 0, B: 1, WinsA: 2}}}
	rep := NewReport(res, 0, 0)
	var text strings.Builder
	rep.WriteText(&text)
	if !strings.Contains(text.String(), "no Elo ratings: arena: elo: b rates infinitely below") {
		t.Errorf("report:\n%s", text.String())
	}
	data, err := rep.MarshalJSON()
	if err != nil || !strings.Contains(string(data), `"ratings_error": "arena: elo: b rates infinitely below`) {
		t.Errorf("json: %s %v", data, err)
	}
}
