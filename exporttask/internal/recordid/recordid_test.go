package recordid

import "testing"

func TestCanonical(t *testing.T) {
	for _, tc := range []struct {
		id, want string
		ok       bool
	}{
		{"8B867544-2dab-43A1-be6e-f23ec83c19b4", "8b867544-2dab-43a1-be6e-f23ec83c19b4", true},
		{"8b867544-2dab-43a1-be6e-f23ec83c19b4", "8b867544-2dab-43a1-be6e-f23ec83c19b4", true},
		{"8b867544-2dab-43a1-be6e-f23ec83c19b", "", false},  // short
		{"8b867544-2dab-43a1-be6e-f23ec83c19bg", "", false}, // not hex
		{"8b8675442-dab-43a1-be6e-f23ec83c19b4", "", false}, // dash misplaced
		{"{8b867544-2dab-43a1-be6e-f23ec83c19}", "", false}, // braces
		{"", "", false},
	} {
		got, ok := Canonical(tc.id)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Canonical(%q) = %q, %v; want %q, %v", tc.id, got, ok, tc.want, tc.ok)
		}
	}
}
