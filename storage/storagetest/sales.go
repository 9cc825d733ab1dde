package storagetest

import "testing"

func testCustomers(t *testing.T, newStore Factory) { t.Skip("customers arrive with issue 5") }

func testOrders(t *testing.T, newStore Factory) { t.Skip("orders arrive with issue 5") }
