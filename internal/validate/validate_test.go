package validate

import (
	"testing"

	"github.com/promoengine/promo/promotype"
)

type inner struct {
	Category *string `json:"category" validate:"omitempty,max=3"`
}

type outer struct {
	Name string `json:"name" validate:"required"`
	inner
}

// Fields of an embedded struct are flat in the JSON, and so in the paths.
func TestEmbeddedFieldsAreFlat(t *testing.T) {
	t.Parallel()
	long := "abcd"
	tests := []struct {
		in   outer
		want string
	}{
		{outer{Name: "x", inner: inner{Category: &long}}, "Property .category must NOT have more than 3 characters"},
		{outer{}, "Payload must have required property 'name'"},
	}
	for _, tc := range tests {
		if e := promotype.AsError(Struct(tc.in)); e.Details != tc.want {
			t.Errorf("details %q, want %q", e.Details, tc.want)
		}
	}
}
