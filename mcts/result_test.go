package mcts

import (
	"reflect"
	"testing"

	"github.com/konanezero/konane/rules"
)

// TestMapResult: MapResult keeps every field of a result (each set here
// to a non-zero value by reflection, so that a field added later and not
// mapped fails the test) and maps the moves.
func TestMapResult(t *testing.T) {
	var r Result
	v := reflect.ValueOf(&r).Elem()
	m := rules.Move{From: rules.SquareAt(1, 2), To: rules.SquareAt(1, 0)}
	for i := range v.NumField() {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.Slice:
			f.Set(reflect.MakeSlice(f.Type(), 2, 2))
			for j := range 2 {
				setNonZero(t, v.Type().Field(i).Name, f.Index(j), m)
			}
		default:
			setNonZero(t, v.Type().Field(i).Name, f, m)
		}
	}
	got := MapResult(r, rules.Move.Wide)
	gv := reflect.ValueOf(got)
	for i := range gv.NumField() {
		if gv.Field(i).IsZero() {
			t.Errorf("MapResult dropped the field %s", gv.Type().Field(i).Name)
		}
	}
	if back := MapResult(got, rules.WideMove.Narrow); !reflect.DeepEqual(back, r) {
		t.Errorf("mapped there and back:\n%+v\nwant\n%+v", back, r)
	}
	if n := MapResult(Result{}, rules.Move.Wide); n.Moves != nil || n.PV != nil {
		t.Errorf("nil moves mapped to %v, %v", n.Moves, n.PV)
	}
}

// setNonZero sets f to a non-zero value: m for a move.
func setNonZero(t *testing.T, name string, f reflect.Value, m rules.Move) {
	t.Helper()
	switch f.Kind() {
	case reflect.Int:
		f.SetInt(3)
	case reflect.Float32:
		f.SetFloat(0.5)
	case reflect.Bool:
		f.SetBool(true)
	default:
		if f.Type() != reflect.TypeOf(m) {
			t.Fatalf("field %s of type %s: teach the test a non-zero value", name, f.Type())
		}
		f.Set(reflect.ValueOf(m))
	}
}
