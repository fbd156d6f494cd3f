//go:build gcs

package runstore

import _ "gocloud.dev/blob/gcsblob" // gs://

func init() { linked["gs"] = true }
