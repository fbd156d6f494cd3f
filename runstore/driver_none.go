//go:build !s3 && !gcs && !azure

package runstore

import (
	"context"
	"errors"
)

// openBucket is not reached in a build without bucket drivers: Open's
// checkScheme refuses every scheme but file first.
func openBucket(context.Context, string) (backend, error) {
	return nil, errors.New("no bucket driver in this build")
}
