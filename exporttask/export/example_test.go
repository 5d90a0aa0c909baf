package export_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/export"
)

func ExampleCatalogExporter_Estimate() {
	cat := mapCatalog{rasterID: {ID: rasterID, Domain: exporttask.DomainRaster,
		Footprint: square(34, 31, 35, 32), MaxZoom: 5}}
	x, err := export.New(cat, map[exporttask.Domain]export.Engine{exporttask.DomainRaster: &recorder{}})
	if err != nil {
		fmt.Println(err)
		return
	}

	est, err := x.Estimate(context.Background(), exporttask.CreateRequest{
		CatalogRecordID: rasterID, Domain: exporttask.DomainRaster, ROI: roi(square(34.2, 31.2, 34.4, 31.4))})
	fmt.Println(est.Size, err)

	_, err = x.Estimate(context.Background(), exporttask.CreateRequest{
		CatalogRecordID: rasterID, Domain: exporttask.DomainRaster, ROI: roi(square(0, 0, 1, 1))})
	var ve *exporttask.ValidationError
	if errors.As(err, &ve) {
		fmt.Println(ve.Problems[0].Pointer)
	}
	// Output:
	// 42 <nil>
	// /ROI
}
