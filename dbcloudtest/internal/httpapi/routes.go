package httpapi

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
)

type handlerFunc func(a *API, c *call) (reply, error)

type endpoint struct {
	fn       handlerFunc
	withBody bool // the operation takes a JSON body
}

// route is a path shape; "{p}", "{s}", "{r}", "{v}" and "{x}" are the
// project, service, replica set, VPC and peering connection parameters.
// The handlers of the operations beyond the 23 first are named by their
// operation ids in the API's OpenAPI document (getAuthInfo, createVPC, ...).
type route struct {
	segs    []string
	methods map[string]endpoint
}

var routes = []route{
	{[]string{"auth", "info"}, map[string]endpoint{http.MethodGet: {(*API).getAuthInfo, false}}},
	{[]string{"projects"}, map[string]endpoint{http.MethodGet: {(*API).getProjects, false}}},
	{[]string{"projects", "{p}", "services"}, map[string]endpoint{
		http.MethodGet:  {(*API).listServices, false},
		http.MethodPost: {(*API).createService, true},
	}},
	{[]string{"projects", "{p}", "services", "{s}"}, map[string]endpoint{
		http.MethodGet:    {(*API).getService, false},
		http.MethodDelete: {(*API).deleteService, false},
	}},
	serviceAction("start", (*API).startService, false),
	serviceAction("stop", (*API).stopService, false),
	serviceAction("attachToVPC", (*API).attachVPC, true),
	serviceAction("detachFromVPC", (*API).detachVPC, true),
	serviceAction("resize", (*API).resizeService, true),
	serviceAction("enablePooler", (*API).enablePooler, false),
	serviceAction("disablePooler", (*API).disablePooler, false),
	serviceAction("forkService", (*API).forkService, true),
	serviceAction("updatePassword", (*API).updatePassword, true),
	serviceAction("setEnvironment", (*API).setEnvironment, true),
	serviceAction("setHA", (*API).setHA, true),
	serviceAction("rename", (*API).renameService, true),
	{[]string{"projects", "{p}", "services", "{s}", "logs"}, map[string]endpoint{
		http.MethodGet: {(*API).getLogs, false},
	}},
	{[]string{"projects", "{p}", "services", "{s}", "replicaSets"}, map[string]endpoint{
		http.MethodGet:  {(*API).listReplicaSets, false},
		http.MethodPost: {(*API).createReplicaSet, true},
	}},
	{[]string{"projects", "{p}", "services", "{s}", "replicaSets", "{r}"}, map[string]endpoint{
		http.MethodDelete: {(*API).deleteReplicaSet, false},
	}},
	replicaSetAction("resize", (*API).resizeReplicaSet, true),
	replicaSetAction("enablePooler", (*API).enableReplicaSetPooler, false),
	replicaSetAction("disablePooler", (*API).disableReplicaSetPooler, false),
	replicaSetAction("setEnvironment", (*API).setReplicaSetEnvironment, true),
	{[]string{"projects", "{p}", "services", "{s}", "metrics", "available-series"}, map[string]endpoint{
		http.MethodGet: {(*API).getServiceMetricsAvailableSeries, false},
	}},
	{[]string{"projects", "{p}", "services", "{s}", "metrics", "series"}, map[string]endpoint{
		http.MethodPost: {(*API).getServiceMetricsSeries, true},
	}},
	{[]string{"projects", "{p}", "vpcs"}, map[string]endpoint{
		http.MethodGet:  {(*API).getVPCs, false},
		http.MethodPost: {(*API).createVPC, true},
	}},
	{[]string{"projects", "{p}", "vpcs", "{v}"}, map[string]endpoint{
		http.MethodGet:    {(*API).getVPC, false},
		http.MethodDelete: {(*API).deleteVPC, false},
	}},
	{[]string{"projects", "{p}", "vpcs", "{v}", "rename"}, map[string]endpoint{
		http.MethodPost: {(*API).renameVPC, true},
	}},
	{[]string{"projects", "{p}", "vpcs", "{v}", "peerings"}, map[string]endpoint{
		http.MethodGet:  {(*API).getVPCPeerings, false},
		http.MethodPost: {(*API).createVPCPeering, true},
	}},
	{[]string{"projects", "{p}", "vpcs", "{v}", "peerings", "{x}"}, map[string]endpoint{
		http.MethodGet:    {(*API).getVPCPeering, false},
		http.MethodDelete: {(*API).deleteVPCPeering, false},
	}},
}

func serviceAction(name string, fn handlerFunc, withBody bool) route {
	return route{[]string{"projects", "{p}", "services", "{s}", name}, map[string]endpoint{http.MethodPost: {fn, withBody}}}
}

func replicaSetAction(name string, fn handlerFunc, withBody bool) route {
	return route{[]string{"projects", "{p}", "services", "{s}", "replicaSets", "{r}", name}, map[string]endpoint{http.MethodPost: {fn, withBody}}}
}

// RelPath is the escaped path after the /v1 prefix, as routes, faults and
// counts see it.
func RelPath(r *http.Request) string {
	p := r.URL.EscapedPath()
	switch {
	case p == "/v1":
		return ""
	case strings.HasPrefix(p, "/v1/"):
		return p[len("/v1"):]
	}
	return p
}

// route matches the request path against the route table. allow is non-nil
// when the path exists but not for this method.
func (c *call) route() (ep endpoint, allow []string, ok bool) {
	if !strings.HasPrefix(c.r.URL.EscapedPath(), "/v1/") {
		return endpoint{}, nil, false
	}
	raw := strings.Split(strings.TrimPrefix(RelPath(c.r), "/"), "/")
	segs := make([]string, len(raw))
	for i, s := range raw {
		u, err := url.PathUnescape(s)
		if err != nil {
			return endpoint{}, nil, false
		}
		segs[i] = u
	}
	for _, rt := range routes {
		if len(rt.segs) != len(segs) || !c.bind(rt.segs, segs) {
			continue
		}
		if ep, ok := rt.methods[c.r.Method]; ok {
			return ep, nil, true
		}
		for m := range rt.methods {
			allow = append(allow, m)
		}
		slices.Sort(allow)
		return endpoint{}, allow, true
	}
	return endpoint{}, nil, false
}

func (c *call) bind(pattern, segs []string) bool {
	for i, p := range pattern {
		switch p {
		case "{p}":
			c.project, c.pathProject = segs[i], true
		case "{s}":
			c.service, c.pathService = segs[i], true
		case "{r}":
			c.set, c.pathSet = segs[i], true
		case "{v}":
			c.vpcID, c.pathVPC = segs[i], true
		case "{x}":
			c.peeringID, c.pathPeering = segs[i], true
		default:
			if p != segs[i] {
				return false
			}
		}
	}
	return true
}
