package memory

// salesData holds customers and orders.
type salesData struct{}

func newSalesData() salesData { return salesData{} }
