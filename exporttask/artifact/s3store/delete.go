package s3store

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/openapi-viewer/viewer/exporttask/artifact"
	"github.com/openapi-viewer/viewer/exporttask/internal/artifactkey"
)

// deleteBatch is how many keys one DeleteObjects request removes (S3's
// maximum).
const deleteBatch = 1000

// DeletePrefix aborts the multipart uploads under prefix (so the writers'
// Commit fails), deletes its objects, a thousand per request, and looks for
// uploads once more (some servers let a part in flight during the abort
// bring its upload back).
func (s *Store) DeletePrefix(ctx context.Context, prefix string) error {
	if prefix == "" {
		return fmt.Errorf("s3store: delete: %w: the empty prefix would delete every file", artifact.ErrKey)
	}
	if err := artifactkey.CheckPrefix(prefix); err != nil {
		return fmt.Errorf("s3store: delete: %w", err)
	}
	if err := s.abortUploads(ctx, prefix); err != nil {
		return fmt.Errorf("s3store: delete %q: %w", prefix, err)
	}
	if err := s.deleteObjects(ctx, prefix); err != nil {
		return fmt.Errorf("s3store: delete %q: %w", prefix, err)
	}
	if err := s.abortUploads(ctx, prefix); err != nil {
		return fmt.Errorf("s3store: delete %q: %w", prefix, err)
	}
	return nil
}

// abortUploads aborts every multipart upload under prefix.
func (s *Store) abortUploads(ctx context.Context, prefix string) error {
	in := &s3.ListMultipartUploadsInput{Bucket: aws.String(s.cfg.Bucket), Prefix: aws.String(s.objectKey(prefix))}
	for {
		page, err := s.client.ListMultipartUploads(ctx, in)
		if err != nil {
			return fmt.Errorf("list uploads: %w", err)
		}
		for _, u := range page.Uploads {
			_, err := s.client.AbortMultipartUpload(ctx, &s3.AbortMultipartUploadInput{
				Bucket: aws.String(s.cfg.Bucket), Key: u.Key, UploadId: u.UploadId,
			})
			if err != nil && !hasCode(err, "NoSuchUpload") {
				return fmt.Errorf("abort upload of %q: %w", aws.ToString(u.Key), err)
			}
		}
		if !aws.ToBool(page.IsTruncated) {
			return nil
		}
		in.KeyMarker, in.UploadIdMarker = page.NextKeyMarker, page.NextUploadIdMarker
	}
}

// deleteObjects deletes every object under prefix.
func (s *Store) deleteObjects(ctx context.Context, prefix string) error {
	pages := s3.NewListObjectsV2Paginator(s.client, &s3.ListObjectsV2Input{
		Bucket: aws.String(s.cfg.Bucket), Prefix: aws.String(s.objectKey(prefix)), MaxKeys: aws.Int32(deleteBatch),
	})
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return fmt.Errorf("list: %w", err)
		}
		if len(page.Contents) == 0 {
			continue
		}
		ids := make([]types.ObjectIdentifier, len(page.Contents))
		for i, o := range page.Contents {
			ids[i] = types.ObjectIdentifier{Key: o.Key}
		}
		out, err := s.client.DeleteObjects(ctx, &s3.DeleteObjectsInput{
			Bucket: aws.String(s.cfg.Bucket),
			Delete: &types.Delete{Objects: ids, Quiet: aws.Bool(true)},
		})
		if err != nil {
			return fmt.Errorf("delete objects: %w", err)
		}
		var errs []error
		for _, e := range out.Errors {
			errs = append(errs, fmt.Errorf("delete %q: %s: %s", aws.ToString(e.Key), aws.ToString(e.Code), aws.ToString(e.Message)))
		}
		if err := errors.Join(errs...); err != nil {
			return err
		}
	}
	return nil
}

// Uploads returns the object keys (with the store's prefix) of the
// multipart uploads in progress under prefix: writers not yet committed or
// aborted, or the leftovers of a crashed process, which
// [Store.DeletePrefix] aborts.
func (s *Store) Uploads(ctx context.Context, prefix string) ([]string, error) {
	if err := artifactkey.CheckPrefix(prefix); err != nil {
		return nil, fmt.Errorf("s3store: uploads: %w", err)
	}
	var keys []string
	in := &s3.ListMultipartUploadsInput{Bucket: aws.String(s.cfg.Bucket), Prefix: aws.String(s.objectKey(prefix))}
	for {
		page, err := s.client.ListMultipartUploads(ctx, in)
		if err != nil {
			return nil, fmt.Errorf("s3store: uploads %q: %w", prefix, err)
		}
		for _, u := range page.Uploads {
			keys = append(keys, aws.ToString(u.Key))
		}
		if !aws.ToBool(page.IsTruncated) {
			return keys, nil
		}
		in.KeyMarker, in.UploadIdMarker = page.NextKeyMarker, page.NextUploadIdMarker
	}
}
