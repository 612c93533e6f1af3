package passgpfast

// Config is the complete training configuration. It is stored as JSON in
// model and checkpoint files (model.Model.Options), and a resumed run
// takes it from its checkpoint. DefaultConfig gives train's defaults; the
// zero Config is not a valid configuration.
type Config struct {
	Method     string    `json:"method"`
	Kernel     string    `json:"kernel"`
	Degree     int       `json:"degree,omitempty"`
	Gamma      float64   `json:"gamma,omitempty"`
	Theta      []float64 `json:"theta,omitempty"` // initial θ; empty = the method's default
	FixedTheta bool      `json:"fixed_theta,omitempty"`
	Init       int       `json:"init"` // N_init; 0: passgp.InitSize; stored resolved
	Sub        int       `json:"sub"`
	Passes     int       `json:"passes,omitempty"` // 0 = method default
	PInc       float64   `json:"p_inc"`
	PDel       float64   `json:"p_del"`
	PExc       float64   `json:"p_exc"`
	M          int       `json:"m,omitempty"`
	HypEvery   int       `json:"hyp_every"`
	// Augment is the invariance stage: "", "shift4" or "shift8".
	Augment string `json:"augment,omitempty"`
	// AugmentSub and AugmentPasses are N_sub and N_pass of the invariance
	// stage (0: Sub and Passes, the paper's and train's).
	// ImageW×ImageH is the images' geometry (0: the data set's, or square;
	// stored resolved).
	AugmentSub    int `json:"augment_sub,omitempty"`
	AugmentPasses int `json:"augment_passes,omitempty"`
	ImageW        int `json:"image_w,omitempty"`
	ImageH        int `json:"image_h,omitempty"`
	// BoundFITC is passgp.Options.BoundFITC.
	BoundFITC int    `json:"fitc_bound,omitempty"`
	Seed      uint64 `json:"seed"`
	// MaxActive is PASS-GP's budget (0: none; AutoMaxActive:
	// passgp.SqrtBudget(N), stored resolved).
	MaxActive int `json:"max_active,omitempty"`
	// Positive, when set, trains that label against the rest.
	Positive *float64 `json:"positive,omitempty"`
	// Scale is the input scaling: "standard", "minmax", "none" or "auto"
	// (ResolveScale); stored resolved, with "" for none.
	Scale string `json:"scale,omitempty"`
	Data  string `json:"data,omitempty"`
	N     int    `json:"n"`
	D     int    `json:"d"`
}

// AutoMaxActive as Config.MaxActive asks for passgp.SqrtBudget(N).
const AutoMaxActive = -1

// Train's defaults that differ from the paper's rules (passgp.Options'
// zero values). docs/decisions.md gives the
// cross-validated measurements behind each.
const (
	// DefaultKernel is the covariance function of PASS-GP and IVM: the
	// paper's SE plus a constant term, the variance of a shared offset
	// learned by the evidence with the rest of θ.
	DefaultKernel = "se+bias"
	// DefaultBoundFITC bounds the number of FITC inducing inputs of the
	// posterior that predicts where PASS-GP's budget binds (at most half
	// the budget: passgp.Options.BoundFITC).
	DefaultBoundFITC = 300
)
