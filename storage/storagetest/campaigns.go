package storagetest

import "testing"

func testCampaigns(t *testing.T, newStore Factory) { t.Skip("campaigns arrive with issue 4") }

func testVouchers(t *testing.T, newStore Factory) { t.Skip("vouchers arrive with issue 4") }

func testAsyncActions(t *testing.T, newStore Factory) { t.Skip("async actions arrive with issue 4") }
