package httpadapter

// GzipWrapper is the compression every answer goes through, for the
// benchmarks of package httpadapter_test.
var GzipWrapper = gzipWrapper
