package storagetest

import "testing"

func testTokens(t *testing.T, newStore Factory) { t.Skip("OAuth tokens arrive with issue 3") }
