package passgp

import (
	"context"
	"fmt"

	"github.com/passgp-fast/passgp-fast/calib"
	"github.com/passgp-fast/passgp-fast/la"
)

// CalibrateBinaryRows fits the Platt calibration (calib.FitBinary) of a
// trained binary classifier b on its held-out latents on the training
// data x, y (±1), read through Rows: the fit Train makes
// (Result.Calibration), for a classifier trained earlier. It has no image
// geometry: for a classifier of an invariance stage it uses the plain
// cavities, which still see each image's translations; Train and
// TrainAugmented leave those out (groupHeldOut).
func CalibrateBinaryRows(b *Binary, x Rows, y []float64) (*calib.Calibration, error) {
	n, _ := x.Dims()
	if len(y) != n {
		return nil, fmt.Errorf("passgp: CalibrateBinaryRows: %d labels for %d rows", len(y), n)
	}
	z, rho, _, err := heldOutLatents(context.Background(), newRunner(la.Threads()), b, x, nil)
	if err != nil {
		return nil, err
	}
	return calib.FitBinary(z, rho, y)
}
