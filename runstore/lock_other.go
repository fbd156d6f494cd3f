//go:build !unix

package runstore

import (
	"fmt"
	"os"
)

func lockFile(path string) (*os.File, bool, error) {
	return nil, false, fmt.Errorf("runstore: locking %s: file locks need a Unix system", path)
}

func processAlive(pid int) bool { return true }
