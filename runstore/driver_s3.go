//go:build s3

package runstore

import _ "gocloud.dev/blob/s3blob" // s3:// (AWS, MinIO, R2, SeaweedFS, GCS's S3 interface)

func init() { linked["s3"] = true }
