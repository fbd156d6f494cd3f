package mcts

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/konanezero/konane/rules"
)

func fakeResult(policy ...float32) Result {
	r := Result{Policy: policy}
	for i := range policy {
		r.Moves = append(r.Moves, rules.Move{From: rules.Square(i), To: rules.Square(i)})
	}
	r.Best = r.Moves[len(r.Moves)-1]
	return r
}

// TestSelectMove: temperature 0 plays Best; temperature 1 samples the
// policy; a small temperature nearly always picks the largest entry;
// bad input gives an error.
func TestSelectMove(t *testing.T) {
	res := fakeResult(0.1, 0.6, 0, 0.3)
	if m, err := SelectMove(res, 0, nil); err != nil || m != res.Best {
		t.Errorf("temperature 0: %v %v, want %v", m, err, res.Best)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	for _, tc := range []struct {
		temp float64
		want []float64
	}{
		{1, []float64{0.1, 0.6, 0, 0.3}},
		// p^2 normalized: 0.01, 0.36, 0, 0.09 over 0.46.
		{0.5, []float64{0.01 / 0.46, 0.36 / 0.46, 0, 0.09 / 0.46}},
		{0.01, []float64{0, 1, 0, 0}},
	} {
		const draws = 20000
		counts := make([]float64, 4)
		for range draws {
			m, err := SelectMove(res, tc.temp, rng)
			if err != nil {
				t.Fatal(err)
			}
			counts[indexOf(res.Moves, m)]++
		}
		for i := range counts {
			if got := counts[i] / draws; math.Abs(got-tc.want[i]) > 0.015 {
				t.Errorf("temperature %v: move %d drawn %.3f of the time, want %.3f", tc.temp, i, got, tc.want[i])
			}
		}
	}
	for _, tc := range []struct {
		name string
		res  Result
		temp float64
		rng  *rand.Rand
		want string
	}{
		{"empty", Result{}, 1, rng, "0 moves"},
		{"negative", res, -1, rng, "temperature -1"},
		{"NaN", res, math.NaN(), rng, "temperature NaN"},
		{"infinite", res, math.Inf(1), rng, "temperature +Inf"},
		{"no rng", res, 1, nil, "random source"},
	} {
		if _, err := SelectMove(tc.res, tc.temp, tc.rng); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestTemperatureSchedule(t *testing.T) {
	az := TemperatureSchedule{Initial: 1, Hold: 4}
	smooth := TemperatureSchedule{Initial: 0.8, Final: 0.2, Hold: 2, HalfLife: 3}
	for _, tc := range []struct {
		s    TemperatureSchedule
		ply  int
		want float64
	}{
		{az, 0, 1}, {az, 3, 1}, {az, 4, 0}, {az, 50, 0},
		{smooth, 0, 0.8}, {smooth, 2, 0.8}, {smooth, 5, 0.5}, {smooth, 8, 0.35},
	} {
		if got := tc.s.At(tc.ply); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%+v at ply %d: %v, want %v", tc.s, tc.ply, got, tc.want)
		}
	}
	if err := smooth.Validate(); err != nil {
		t.Error(err)
	}
	for _, bad := range []TemperatureSchedule{
		{Initial: -1}, {Initial: math.NaN()}, {Final: math.Inf(1)}, {Hold: -1}, {HalfLife: -2},
	} {
		if err := bad.Validate(); err == nil || !strings.HasPrefix(err.Error(), "mcts: temperature schedule: ") {
			t.Errorf("%+v: error %v", bad, err)
		}
	}
}

func TestPlayoutCap(t *testing.T) {
	pc := PlayoutCap{FullSims: 600, FastSims: 100, FullFraction: 0.25}
	if err := pc.Validate(); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(2, 2))
	full := 0
	const draws = 10000
	for range draws {
		opts, record := pc.Choose(rng)
		switch {
		case record && opts == (RunOptions{Sims: 600, Noise: true}):
			full++
		case !record && opts == (RunOptions{Sims: 100, Noise: false}):
		default:
			t.Fatalf("Choose gave %+v, record %v", opts, record)
		}
	}
	if f := float64(full) / draws; math.Abs(f-0.25) > 0.015 {
		t.Errorf("full searches %.3f of the time, want 0.25", f)
	}
	always := PlayoutCap{FullSims: 50, FastSims: 50, FullFraction: 1}
	for range 100 {
		if _, record := always.Choose(rng); !record {
			t.Fatal("FullFraction 1 gave a fast search")
		}
	}
	for _, bad := range []PlayoutCap{
		{FullSims: 0, FastSims: 1, FullFraction: 1},
		{FullSims: 10, FastSims: 11, FullFraction: 1},
		{FullSims: 10, FastSims: 0, FullFraction: 1},
		{FullSims: 10, FastSims: 5, FullFraction: 0},
		{FullSims: 10, FastSims: 5, FullFraction: math.NaN()},
	} {
		if err := bad.Validate(); err == nil || !strings.HasPrefix(err.Error(), "mcts: playout cap: ") {
			t.Errorf("%+v: error %v", bad, err)
		}
	}
}
