package dbcloud

import (
	"strconv"
	"time"
	"unicode/utf8"
)

// CreateServiceRequest is the input of ServicesClient.Create.
type CreateServiceRequest struct {
	Name           string      // required, 1 to 128 characters
	Addons         []Addon     // extensions to enable; they decide the type (see Addon)
	CPUMillis      int         // 0 = let the service choose; sent as a string
	MemoryGBs      int         // 0 = let the service choose; sent as a string
	Shared         bool        // sends cpu_millis and memory_gbs as "shared"
	EnvironmentTag Environment // "" = not sent (the API defaults to DEV)
	RegionCode     string      // "" = not sent (the API chooses)
	ReplicaCount   *int        // HA replicas; nil = not sent
}

// ResizeRequest is the input of ServicesClient.Resize and
// ReplicaSetsClient.Resize. Both sizes are required and sent as strings.
type ResizeRequest struct {
	CPUMillis int
	MemoryGBs int
}

// ForkServiceRequest is the input of ServicesClient.Fork.
type ForkServiceRequest struct {
	Strategy       ForkStrategy // required
	TargetTime     time.Time    // for ForkPITR only (required there); checked as Validate says
	Name           string       // "" = the parent's name with "-fork"
	CPUMillis      int          // 0 = inherited from the parent
	MemoryGBs      int          // 0 = inherited from the parent
	Shared         bool         // sends both sizes as "shared"
	EnvironmentTag Environment  // "" = not sent (the API defaults to DEV)
}

// SetHARequest is the input of ServicesClient.SetHA: at least one count; nil is not sent.
type SetHARequest struct {
	ReplicaCount     *int
	SyncReplicaCount *int
}

// CreateReplicaSetRequest is the input of ReplicaSetsClient.Create. All
// fields are required; sizes are sent as numbers here.
type CreateReplicaSetRequest struct {
	Name      string
	Nodes     int
	CPUMillis int
	MemoryGBs int
}

// maxNameLen is the API's limit on service and replica set names.
const maxNameLen = 128

// Wire bodies: the exact JSON the API takes, with unset optional fields omitted.
type (
	createServiceBody struct {
		Name           string      `json:"name"`
		Addons         []Addon     `json:"addons,omitempty"`
		CPUMillis      string      `json:"cpu_millis,omitempty"`
		MemoryGBs      string      `json:"memory_gbs,omitempty"`
		EnvironmentTag Environment `json:"environment_tag,omitempty"`
		RegionCode     string      `json:"region_code,omitempty"`
		ReplicaCount   *int        `json:"replica_count,omitempty"`
	}
	resizeBody struct {
		CPUMillis string `json:"cpu_millis"`
		MemoryGBs string `json:"memory_gbs"`
	}
	forkBody struct {
		ForkStrategy   ForkStrategy `json:"fork_strategy"`
		TargetTime     string       `json:"target_time,omitempty"`
		Name           string       `json:"name,omitempty"`
		CPUMillis      string       `json:"cpu_millis,omitempty"`
		MemoryGBs      string       `json:"memory_gbs,omitempty"`
		EnvironmentTag Environment  `json:"environment_tag,omitempty"`
	}
	setHABody struct {
		ReplicaCount     *int `json:"replica_count,omitempty"`
		SyncReplicaCount *int `json:"sync_replica_count,omitempty"`
	}
	createReplicaSetBody struct {
		CPUMillis int    `json:"cpu_millis"`
		MemoryGBs int    `json:"memory_gbs"`
		Name      string `json:"name"`
		Nodes     int    `json:"nodes"`
	}
	vpcBody struct {
		VPCID string `json:"vpc_id"`
	}
	passwordBody struct {
		Password string `json:"password"`
	}
	environmentBody struct {
		Environment Environment `json:"environment"`
	}
	renameBody struct { // of a service's and a VPC's rename
		Name string `json:"name"`
	}
)

func (r *CreateServiceRequest) body() (*createServiceBody, error) {
	if r == nil {
		return nil, invalid("req", "nil CreateServiceRequest")
	}
	if err := checkName("Name", r.Name, true); err != nil {
		return nil, err
	}
	for _, a := range r.Addons {
		if a != AddonTimeSeries && a != AddonAI {
			return nil, invalid("Addons", strconv.Quote(string(a))+" is not an addon: want time-series or ai")
		}
	}
	cpu, mem, err := sizes(r.CPUMillis, r.MemoryGBs, r.Shared)
	if err != nil {
		return nil, err
	}
	if err := checkEnvironment("EnvironmentTag", r.EnvironmentTag, true); err != nil {
		return nil, err
	}
	if err := checkCount("ReplicaCount", r.ReplicaCount); err != nil {
		return nil, err
	}
	return &createServiceBody{
		Name: r.Name, Addons: r.Addons, CPUMillis: cpu, MemoryGBs: mem,
		EnvironmentTag: r.EnvironmentTag, RegionCode: r.RegionCode, ReplicaCount: r.ReplicaCount,
	}, nil
}

func (r *ResizeRequest) body() (*resizeBody, error) {
	if r == nil {
		return nil, invalid("req", "nil ResizeRequest")
	}
	if r.CPUMillis < 1 {
		return nil, invalid("CPUMillis", "required, at least 1")
	}
	if r.MemoryGBs < 1 {
		return nil, invalid("MemoryGBs", "required, at least 1")
	}
	return &resizeBody{CPUMillis: strconv.Itoa(r.CPUMillis), MemoryGBs: strconv.Itoa(r.MemoryGBs)}, nil
}

func (r *ForkServiceRequest) body() (*forkBody, error) {
	if r == nil {
		return nil, invalid("req", "nil ForkServiceRequest")
	}
	b := &forkBody{ForkStrategy: r.Strategy, Name: r.Name, EnvironmentTag: r.EnvironmentTag}
	switch r.Strategy {
	case ForkLastSnapshot, ForkNow:
		if !r.TargetTime.IsZero() {
			return nil, invalid("TargetTime", "only used with ForkPITR")
		}
	case ForkPITR:
		if r.TargetTime.IsZero() {
			return nil, invalid("TargetTime", "required with ForkPITR")
		}
		if r.TargetTime.After(time.Now()) {
			return nil, invalid("TargetTime", r.TargetTime.UTC().Format(time.RFC3339)+" is in the future: a fork restores a state that existed")
		}
		b.TargetTime = r.TargetTime.UTC().Format(time.RFC3339Nano)
	case "":
		return nil, invalid("Strategy", "required: ForkLastSnapshot, ForkNow or ForkPITR")
	default:
		return nil, invalid("Strategy", strconv.Quote(string(r.Strategy))+" is not a fork strategy")
	}
	if err := checkName("Name", r.Name, false); err != nil {
		return nil, err
	}
	var err error
	if b.CPUMillis, b.MemoryGBs, err = sizes(r.CPUMillis, r.MemoryGBs, r.Shared); err != nil {
		return nil, err
	}
	if err := checkEnvironment("EnvironmentTag", r.EnvironmentTag, true); err != nil {
		return nil, err
	}
	return b, nil
}

func (r *SetHARequest) body() (*setHABody, error) {
	if r == nil || (r.ReplicaCount == nil && r.SyncReplicaCount == nil) {
		return nil, invalid("req", "set ReplicaCount, SyncReplicaCount or both")
	}
	if err := checkCount("ReplicaCount", r.ReplicaCount); err != nil {
		return nil, err
	}
	if err := checkCount("SyncReplicaCount", r.SyncReplicaCount); err != nil {
		return nil, err
	}
	return &setHABody{ReplicaCount: r.ReplicaCount, SyncReplicaCount: r.SyncReplicaCount}, nil
}

func (r *CreateReplicaSetRequest) body() (*createReplicaSetBody, error) {
	if r == nil {
		return nil, invalid("req", "nil CreateReplicaSetRequest")
	}
	if err := checkName("Name", r.Name, true); err != nil {
		return nil, err
	}
	for _, f := range []struct {
		name string
		v    int
	}{{"Nodes", r.Nodes}, {"CPUMillis", r.CPUMillis}, {"MemoryGBs", r.MemoryGBs}} {
		if f.v < 1 {
			return nil, invalid(f.name, "required, at least 1")
		}
	}
	return &createReplicaSetBody{CPUMillis: r.CPUMillis, MemoryGBs: r.MemoryGBs, Name: r.Name, Nodes: r.Nodes}, nil
}

// sizes renders the create and fork sizes: digits, "shared", or absent.
func sizes(cpu, mem int, shared bool) (string, string, error) {
	switch {
	case shared && (cpu != 0 || mem != 0):
		return "", "", invalid("Shared", "cannot be combined with CPUMillis or MemoryGBs")
	case shared:
		return "shared", "shared", nil
	case cpu < 0:
		return "", "", invalid("CPUMillis", "must not be negative")
	case mem < 0:
		return "", "", invalid("MemoryGBs", "must not be negative")
	}
	var cpuText, memText string // "" for 0: not sent
	if cpu != 0 {
		cpuText = strconv.Itoa(cpu)
	}
	if mem != 0 {
		memText = strconv.Itoa(mem)
	}
	return cpuText, memText, nil
}

func checkName(field, name string, required bool) error {
	n := utf8.RuneCountInString(name)
	switch {
	case n == 0 && required:
		return invalid(field, "required")
	case n > maxNameLen:
		return invalid(field, "longer than "+strconv.Itoa(maxNameLen)+" characters")
	case !utf8.ValidString(name):
		return invalid(field, "not valid UTF-8")
	}
	return nil
}

func checkEnvironment(field string, env Environment, optional bool) error {
	if env == EnvironmentDev || env == EnvironmentProd || (optional && env == "") {
		return nil
	}
	return invalid(field, strconv.Quote(string(env))+" is not an environment: want DEV or PROD")
}

func checkCount(field string, n *int) error {
	if n != nil && *n < 0 {
		return invalid(field, "must not be negative")
	}
	return nil
}

// Validate checks req as Fork does before sending (a PITR target in this
// machine's future is refused) and, when parent is not nil, against it: a
// target before the parent's creation is refused too, unless that creation
// is in this machine's future (the clocks disagree; the API judges). Fork
// does not read the parent; the deploy package does. The API documents no
// PITR window, so a target within these bounds may still get a 400.
func (r *ForkServiceRequest) Validate(parent *Service) error {
	if _, err := r.body(); err != nil {
		return err
	}
	if r.Strategy == ForkPITR && parent != nil && !parent.Created.IsZero() && parent.Created.Before(time.Now()) && r.TargetTime.Before(parent.Created) {
		return invalid("TargetTime", r.TargetTime.UTC().Format(time.RFC3339)+" is before the parent service was created ("+parent.Created.UTC().Format(time.RFC3339)+")")
	}
	return nil
}
