//go:build azure

package runstore

import _ "gocloud.dev/blob/azureblob" // azblob://

func init() { linked["azblob"] = true }
