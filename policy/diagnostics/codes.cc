#include "policy/diagnostics/codes.h"

#include <array>
#include <string>

#include "policy/common/ascii.h"

namespace draguard::diagnostics {
namespace {

constexpr auto kCodes = std::to_array<CodeInfo>({
    {"meta.name.required", Severity::kError,
     "metadata.name and metadata.generateName are both empty"},
    {"meta.name.invalid", Severity::kError, "metadata.name is not a DNS subdomain (<=253)"},
    {"meta.generate-name.invalid", Severity::kError,
     "metadata.generateName is not a valid name prefix"},
    {"meta.namespace.ignored", Severity::kWarning,
     "cluster-scoped kind with metadata.namespace (silently cleared)"},
    {"meta.immutable", Severity::kError, "metadata.name, namespace or uid changed on update"},
    {"meta.labels.invalid", Severity::kError, "label key or value malformed"},
    {"meta.annotations.invalid", Severity::kError, "annotation key malformed"},
    {"meta.annotations.too-long", Severity::kError, "annotations exceed 256 KiB in total"},
    {"template.metadata.forbidden", Severity::kError,
     "ResourceClaimTemplate spec.metadata sets a field other than labels/annotations"},
    {"template.spec.immutable", Severity::kError, "ResourceClaimTemplate spec changed on update"},
    {"claim.spec.immutable", Severity::kError, "ResourceClaim spec changed on update"},
    {"claim.status.ignored", Severity::kWarning,
     "status in a create body (discarded by the API server)"},
    {"claim.requests.too-many", Severity::kError, "more than 32 requests"},
    {"claim.request.name.invalid", Severity::kError,
     "request name is not a DNS label (empty included)"},
    {"claim.request.name.duplicate", Severity::kError, "two requests share a name"},
    {"claim.request.exactly-or-first-available.missing", Severity::kError,
     "request has neither exactly nor firstAvailable"},
    {"claim.request.exactly-or-first-available.both", Severity::kError,
     "request has both exactly and firstAvailable"},
    {"claim.request.first-available.too-many", Severity::kError, "more than 8 subrequests"},
    {"claim.request.first-available.dropped", Severity::kWarning,
     "firstAvailable dropped: DRAPrioritizedList is off"},
    {"claim.subrequest.name.invalid", Severity::kError, "subrequest name is not a DNS label"},
    {"claim.subrequest.name.duplicate", Severity::kError,
     "two subrequests of one request share a name"},
    {"claim.request.device-class-name.required", Severity::kError, "deviceClassName missing"},
    {"claim.request.device-class-name.invalid", Severity::kError,
     "deviceClassName is not a DNS subdomain"},
    {"claim.request.allocation-mode.unsupported", Severity::kError,
     "allocationMode other than All/ExactCount (case-sensitive)"},
    {"claim.request.count.defaulted", Severity::kWarning,
     "explicit count: 0, silently defaulted to 1 by the API server"},
    {"claim.request.count.invalid", Severity::kError,
     "count <= 0 with ExactCount, or count set with All"},
    {"claim.request.tolerations.dropped", Severity::kWarning,
     "tolerations dropped: DRADeviceTaints is off"},
    {"claim.request.capacity.dropped", Severity::kWarning,
     "capacity dropped: DRAConsumableCapacity is off"},
    {"claim.request.capacity.key.invalid", Severity::kWarning,
     "capacity request key is not a QualifiedName (not checked upstream)"},
    {"claim.request.capacity.value.not-positive", Severity::kWarning,
     "capacity request not positive (not checked upstream)"},
    {"claim.admin-access.forbidden", Severity::kError,
     "adminAccess: true without the namespace label resource.kubernetes.io/admin-access=true"},
    {"claim.admin-access.unverified", Severity::kWarning,
     "adminAccess: true but the namespace labels are unknown"},
    {"claim.admin-access.dropped", Severity::kWarning,
     "adminAccess dropped: DRAAdminAccess is off"},
    {"claim.constraints.too-many", Severity::kError, "more than 32 constraints"},
    {"claim.constraint.requests.too-many", Severity::kError,
     "more than 32 request names in a constraint"},
    {"claim.constraint.requests.duplicate", Severity::kError,
     "request name listed twice in a constraint"},
    {"claim.constraint.requests.invalid", Severity::kError,
     "constraint request reference malformed"},
    {"claim.constraint.requests.unknown", Severity::kError,
     "constraint references a request or request/subrequest that does not exist"},
    {"claim.constraint.match-attribute.invalid", Severity::kError,
     "matchAttribute is not a fully qualified name"},
    {"claim.constraint.distinct-attribute.invalid", Severity::kError,
     "distinctAttribute is not a fully qualified name"},
    {"claim.constraint.attribute.required", Severity::kError,
     "constraint without matchAttribute (or distinctAttribute)"},
    {"claim.constraint.distinct-attribute.gate-off", Severity::kWarning,
     "distinctAttribute kept with DRAConsumableCapacity off; the scheduler fails the claim"},
    {"claim.constraint.attribute.both", Severity::kWarning,
     "matchAttribute and distinctAttribute both set"},
    {"claim.constraint.attribute.unchecked", Severity::kWarning,
     "attribute name with more than one '/' (not checked upstream)"},
    {"claim.config.too-many", Severity::kError, "more than 32 config entries"},
    {"claim.config.requests.too-many", Severity::kError,
     "more than 32 request names in a config entry"},
    {"claim.config.requests.duplicate", Severity::kError,
     "request name listed twice in a config entry"},
    {"claim.config.requests.invalid", Severity::kError, "config request reference malformed"},
    {"claim.config.requests.unknown", Severity::kError,
     "config references a request or request/subrequest that does not exist"},
    {"selector.too-many", Severity::kError, "more than 32 selectors"},
    {"selector.cel.required", Severity::kError, "selector without cel"},
    {"selector.expression.too-long", Severity::kError, "CEL expression longer than 10,240 bytes"},
    {"config.opaque.required", Severity::kError, "config entry without opaque"},
    {"config.driver.invalid", Severity::kError,
     "opaque driver name missing, longer than 63 or not a DNS subdomain"},
    {"config.parameters.required", Severity::kError, "opaque parameters missing or null"},
    {"config.parameters.too-long", Severity::kError, "opaque parameters longer than 10,240 bytes"},
    {"config.parameters.invalid", Severity::kError, "opaque parameters not a JSON object"},
    {"toleration.key.invalid", Severity::kError, "toleration key is not a label key"},
    {"toleration.operator.unsupported", Severity::kError,
     "toleration operator other than Equal/Exists"},
    {"toleration.value.invalid", Severity::kError,
     "toleration value not a label value, or set with Exists"},
    {"toleration.effect.unsupported", Severity::kError,
     "toleration effect unknown (None only from 1.35)"},
    {"toleration.key.empty-needs-exists", Severity::kWarning,
     "empty key with operator Equal (documented, not enforced)"},
    {"toleration.too-many", Severity::kWarning,
     "more than 16 tolerations (documented, not enforced)"},
    {"claim.status.reserved-for.too-many", Severity::kError, "more than 256 reservedFor entries"},
    {"claim.status.reserved-for.required", Severity::kError,
     "reservedFor entry without resource, name or uid"},
    {"claim.status.reserved-for.duplicate", Severity::kError, "reservedFor uid listed twice"},
    {"claim.status.reserved-for.forbidden", Severity::kError,
     "reservedFor without allocation, or new entries while deleting"},
    {"claim.status.allocation.immutable", Severity::kError, "allocation changed once set"},
    {"claim.status.allocation.results.too-many", Severity::kError,
     "more than 32 allocation results"},
    {"claim.status.allocation.request.invalid", Severity::kError,
     "allocation result or config references an unknown request"},
    {"claim.status.allocation.driver.invalid", Severity::kError,
     "allocation result driver malformed"},
    {"claim.status.allocation.pool.invalid", Severity::kError, "allocation result pool malformed"},
    {"claim.status.allocation.device.invalid", Severity::kError,
     "allocation result device is not a DNS label"},
    {"claim.status.allocation.config.too-many", Severity::kError,
     "more than 64 allocation config entries"},
    {"claim.status.allocation.config.source.invalid", Severity::kError,
     "allocation config source missing or not FromClaim/FromClass"},
    {"claim.status.allocation.node-selector.invalid", Severity::kError,
     "allocation nodeSelector without terms"},
    {"claim.status.binding-conditions.too-many", Severity::kError,
     "more than 4 binding (failure) conditions"},
    {"claim.status.binding-conditions.invalid", Severity::kError,
     "binding condition malformed, or only one of the two lists set"},
    {"claim.status.binding-conditions.duplicate", Severity::kError,
     "binding condition listed twice"},
    {"claim.status.device.duplicate", Severity::kError, "status.devices entry listed twice"},
    {"claim.status.device.not-allocated", Severity::kError,
     "status.devices entry for a device that is not allocated"},
    {"claim.status.device.conditions.too-many", Severity::kError, "more than 8 device conditions"},
    {"claim.status.device.data.invalid", Severity::kError,
     "device data over 10 KiB or not a JSON object"},
    {"claim.status.device.network-data.invalid", Severity::kError,
     "networkData over its limits or duplicate IPs"},
    {"claim.status.devices.dropped", Severity::kWarning,
     "status.devices dropped: DRAResourceClaimDeviceStatus is off"},
    {"class.config.too-many", Severity::kError, "more than 32 DeviceClass config entries"},
    {"class.extended-resource-name.invalid", Severity::kError,
     "extendedResourceName is not a valid extended resource name"},
    {"class.extended-resource-name.dropped", Severity::kWarning,
     "extendedResourceName dropped: DRAExtendedResource is off"},
    {"slice.driver.invalid", Severity::kError,
     "driver missing, longer than 63 or not a DNS subdomain"},
    {"slice.driver.immutable", Severity::kError, "driver changed on update"},
    {"slice.pool.name.invalid", Severity::kError,
     "pool name missing, longer than 253 or a segment not a DNS subdomain"},
    {"slice.pool.name.immutable", Severity::kError, "pool name changed on update"},
    {"slice.pool.resource-slice-count.invalid", Severity::kError, "resourceSliceCount <= 0"},
    {"slice.pool.generation.invalid", Severity::kError, "pool generation < 0"},
    {"slice.node-selection.required", Severity::kError,
     "none of nodeName/nodeSelector/allNodes/perDeviceNodeSelection"},
    {"slice.node-selection.multiple", Severity::kError,
     "several of nodeName/nodeSelector/allNodes/perDeviceNodeSelection"},
    {"slice.node-name.invalid", Severity::kError, "nodeName empty or not a valid node name"},
    {"slice.node-name.immutable", Severity::kError, "nodeName changed on update"},
    {"slice.node-selector.invalid", Severity::kError,
     "nodeSelector without exactly one term, or bad operator"},
    {"slice.all-nodes.invalid", Severity::kError, "allNodes set to false"},
    {"slice.per-device-node-selection.invalid", Severity::kError,
     "perDeviceNodeSelection set to false"},
    {"slice.devices.too-many", Severity::kError,
     "more than 128 devices (64 with taints or counters from 1.35)"},
    {"slice.device.name.invalid", Severity::kError, "device name is not a DNS label"},
    {"slice.device.name.duplicate", Severity::kError, "two devices share a name"},
    {"slice.device.attributes.too-many", Severity::kError, "attributes + capacities > 32"},
    {"slice.device.attribute.name.invalid", Severity::kError,
     "attribute name is not a QualifiedName"},
    {"slice.device.attribute.value.invalid", Severity::kError,
     "attribute without exactly one value"},
    {"slice.device.attribute.string.too-long", Severity::kError,
     "string attribute longer than 64 bytes"},
    {"slice.device.attribute.version.invalid", Severity::kError,
     "version attribute longer than 64 bytes or not semver"},
    {"slice.device.attribute.list.empty", Severity::kError,
     "list-typed attribute (ints, bools, strings, versions) present but empty"},
    {"slice.device.attribute.values.too-many", Severity::kError,
     "more than 48 attribute values on one device (a list counts its length)"},
    {"slice.device.list-attribute.dropped", Severity::kWarning,
     "list-typed attribute dropped: DRAListTypeAttributes is off"},
    {"slice.device.capacity.name.invalid", Severity::kError,
     "capacity name is not a QualifiedName"},
    {"slice.device.capacity.request-policy.invalid", Severity::kError,
     "requestPolicy: validValues/validRange/default inconsistent or above the capacity"},
    {"slice.device.capacity.request-policy.forbidden", Severity::kError,
     "requestPolicy without allowMultipleAllocations: true"},
    {"slice.device.taints.too-many", Severity::kError, "more than 16 taints (4 in 1.34)"},
    {"slice.device.taints.dropped", Severity::kWarning,
     "device taints dropped: DRADeviceTaints is off"},
    {"slice.device.consumes-counters.too-many", Severity::kError,
     "too many counter consumptions or counters"},
    {"slice.device.consumes-counters.counter-set.invalid", Severity::kError,
     "counterSet is not a DNS label"},
    {"slice.device.consumes-counters.counters.required", Severity::kError,
     "consumption without counters"},
    {"slice.device.consumes-counters.counters.too-many", Severity::kError,
     "more than 32 counters in a consumption"},
    {"slice.device.consumes-counters.counters.name.invalid", Severity::kError,
     "counter name is not a DNS label"},
    {"slice.device.consumes-counters.duplicate", Severity::kError,
     "counterSet consumed twice by one device"},
    {"slice.device.consumes-counters.unknown", Severity::kError,
     "1.34: consumption references a counter not defined in the slice"},
    {"slice.device.node-selection.required", Severity::kError,
     "perDeviceNodeSelection but device has no node selection"},
    {"slice.device.node-selection.multiple", Severity::kError,
     "device sets several node-selection fields"},
    {"slice.device.node-selection.forbidden", Severity::kError,
     "device node selection without perDeviceNodeSelection"},
    {"slice.device.binding-conditions.too-many", Severity::kError,
     "more than 4 binding (failure) conditions"},
    {"slice.device.binding-conditions.invalid", Severity::kError,
     "binding condition malformed, also a failure condition, or only one of the two lists set"},
    {"slice.device.binding-conditions.duplicate", Severity::kError,
     "binding (failure) condition listed twice"},
    {"slice.device.binding-conditions.dropped", Severity::kWarning,
     "binding fields dropped: DRADeviceBindingConditions or DRAResourceClaimDeviceStatus is "
     "off"},
    {"slice.device.node-allocatable.dropped", Severity::kWarning,
     "nodeAllocatableResourceMappings dropped: DRANodeAllocatableResources is off (1.36+)"},
    {"slice.device.node-allocatable.unchecked", Severity::kInfo,
     "nodeAllocatableResourceMappings kept (gate on) but not validated by draguard"},
    {"slice.device.consumable-capacity.dropped", Severity::kWarning,
     "allowMultipleAllocations and requestPolicy dropped: DRAConsumableCapacity is off"},
    {"slice.partitionable.dropped", Severity::kWarning,
     "partitionable-device fields dropped: DRAPartitionableDevices is off"},
    {"slice.shared-counters.too-many", Severity::kError, "more than 8 counter sets (32 in 1.34)"},
    {"slice.shared-counters.name.invalid", Severity::kError, "counter set name is not a DNS label"},
    {"slice.shared-counters.duplicate", Severity::kError, "two counter sets share a name"},
    {"slice.shared-counters.counters.required", Severity::kError, "counter set without counters"},
    {"slice.shared-counters.counters.too-many", Severity::kError, "more than 32 counters in a set"},
    {"slice.shared-counters.counters.name.invalid", Severity::kError,
     "counter name is not a DNS label"},
    {"slice.shared-counters.exclusive", Severity::kError,
     "1.35+: sharedCounters and devices in one slice"},
    {"taint.key.required", Severity::kError, "taint without key"},
    {"taint.key.invalid", Severity::kError, "taint key is not a label key"},
    {"taint.value.invalid", Severity::kError, "taint value is not a label value"},
    {"taint.effect.required", Severity::kError, "taint without effect"},
    {"taint.effect.unsupported", Severity::kError, "taint effect unknown (None only from 1.35)"},
    {"taintrule.api-disabled", Severity::kError,
     "DeviceTaintRule API not served with these gates (the gate is off)"},
    {"taintrule.selector.driver.invalid", Severity::kError, "selector driver malformed"},
    {"taintrule.selector.pool.invalid", Severity::kError, "selector pool malformed"},
    {"taintrule.selector.device.invalid", Severity::kError, "selector device is not a DNS label"},
    {"taintrule.selector.device-class-name.invalid", Severity::kError,
     "1.34: selector deviceClassName is not a DNS subdomain"},
    {"taintrule.selector.field.removed", Severity::kWarning,
     "1.35+: selector field removed from the API"},
    {"refs.pod.claim.not-found", Severity::kWarning,
     "pod names a ResourceClaim that is missing: a typo of one among the inputs, in another "
     "namespace, or not in the --inventory"},
    {"refs.pod.claim-template.not-found", Severity::kWarning,
     "pod names a ResourceClaimTemplate that is missing: a typo of one among the inputs or in "
     "another namespace"},
    {"refs.container.claim.unknown", Severity::kError,
     "container claim names no entry of pod resourceClaims"},
    {"refs.container.claim.request.unknown", Severity::kError,
     "container claim request does not exist in the referenced claim/template"},
    {"refs.device-class.not-found", Severity::kWarning,
     "deviceClassName names a missing DeviceClass: a typo of one among the inputs, or not in "
     "the --inventory"},
    {"refs.pod.claim.unchecked", Severity::kInfo,
     "pods name ResourceClaims the inputs and --inventory lack, none a likely typo (once per "
     "run)"},
    {"refs.pod.claim-template.unchecked", Severity::kInfo,
     "pods name ResourceClaimTemplates the inputs lack, none a likely typo (once per run)"},
    {"refs.device-class.unchecked", Severity::kInfo,
     "claims name DeviceClasses the inputs and --inventory lack, none a likely typo (once per "
     "run)"},
    // Decoding (policy/k8s/decode.h).
    {"decode.yaml-syntax", Severity::kError, "the file is not valid YAML or JSON"},
    {"decode.too-large", Severity::kError,
     "a document exceeds the API server's 3 MiB object limit; the file's other documents are read"},
    {"decode.too-deep", Severity::kError, "collections nested deeper than 256 levels"},
    {"decode.too-many-nodes", Severity::kError, "a document has more than 1,000,000 nodes (aliases expanded)"},
    {"decode.too-many-documents", Severity::kError, "more than 1,000,000 documents in one file (a bound for hostile input; lint reads them one at a time)"},
    {"decode.unknown-field", Severity::kError,
     "a field the API does not have (strict decoding, as kubectl --validate=strict)"},
    {"decode.duplicate-field", Severity::kError, "a key repeated in one map"},
    {"decode.wrong-type", Severity::kError, "a value of the wrong JSON type"},
    {"decode.invalid-quantity", Severity::kError, "a malformed resource.Quantity"},
    {"decode.missing-api-version", Severity::kError, "a Kubernetes kind without apiVersion"},
    {"decode.api-version.unknown", Severity::kError, "an API version resource.k8s.io does not have"},
    {"decode.api-version.removed", Severity::kError,
     "v1alpha1-3 of the core DRA kinds, removed by Kubernetes 1.34"},
    {"decode.api-version.deprecated", Severity::kWarning,
     "a version the release deprecates (v1beta1 from 1.35, v1beta2 from 1.36)"},
    {"decode.api-version.beta", Severity::kWarning, "a beta API, not served by default"},
    {"decode.api-version.alpha", Severity::kWarning, "an alpha API, served only where enabled"},
    {"decode.api-version.not-served", Severity::kError,
     "an API version the chosen Kubernetes release does not serve for this kind"},
    {"decode.classic-dra", Severity::kError, "classic DRA kinds (ResourceClass), removed in 1.31"},
    {"decode.v1beta1-request-shape", Severity::kWarning,
     "v1beta1-shaped request fields sent as resource.k8s.io/v1"},
    {"decode.pod.removed-source-wrapper", Severity::kError,
     "the removed Pod resourceClaims[].source wrapper"},
    {"decode.kind.unchecked", Severity::kInfo, "a resource.k8s.io kind draguard does not check"},
    // ResourcePoolStatusRequest spec (1.36 v1alpha3 declarative tags, policy/k8s).
    {"poolstatus.driver.required", Severity::kError,
     "ResourcePoolStatusRequest without spec.driver"},
    {"poolstatus.driver.invalid", Severity::kError,
     "spec.driver not a DNS subdomain (case-insensitive)"},
    {"poolstatus.pool-name.invalid", Severity::kError,
     "spec.poolName empty, longer than 253 bytes or with a part that is not a DNS subdomain"},
    {"poolstatus.limit.out-of-range", Severity::kError, "spec.limit outside 1-1000"},
    {"poolstatus.spec.invalid", Severity::kError,
     "a ResourcePoolStatusRequest spec field of the wrong type"},
    {"decode.template", Severity::kInfo, "a Helm/envsubst template, not YAML; not checked"},
    // CEL selectors, compiled as the API server compiles a new selector (policy/cel).
    {"cel.syntax-error", Severity::kError, "the expression does not parse"},
    {"cel.unsupported-syntax", Severity::kError, "syntax Kubernetes' CEL does not enable"},
    {"cel.reserved-identifier", Severity::kError, "a reserved word used as an identifier"},
    {"cel.recursion-limit", Severity::kError, "nesting deeper than the parser's limit of 250"},
    {"cel.expression-too-large", Severity::kError, "the expression exceeds the parser's size limit"},
    {"cel.expression-too-long", Severity::kError, "the expression exceeds 10 KiB"},
    {"cel.too-many-nodes", Severity::kError, "the expression has too many nodes"},
    {"cel.invalid-literal", Severity::kError, "a malformed literal (escape, number, regex, ...)"},
    {"cel.invalid-format", Severity::kError,
     "a literal format() string with a bad clause, argument type or argument count"},
    {"cel.program-instantiation", Severity::kError,
     "a constant the API server fails to precompile (a find/findAll pattern)"},
    {"cel.macro-invalid", Severity::kError, "a macro called with the wrong arguments"},
    {"cel.undeclared-reference", Severity::kError, "a name that is not declared (only `device`)"},
    {"cel.undefined-field", Severity::kError, "a field `device` does not have"},
    {"cel.field-selection", Severity::kError, "field selection on a value that has no fields"},
    {"cel.no-matching-overload", Severity::kError, "a function or operator on the wrong types"},
    {"cel.type-mismatch", Severity::kError, "operands of incompatible types"},
    {"cel.comprehension-range", Severity::kError, "a macro over something that is not a list or map"},
    {"cel.result-type", Severity::kError, "the selector does not evaluate to bool"},
    {"cel.cost-exceeded", Severity::kError, "the estimated cost exceeds the API server's limit"},
    {"cel.too-many-errors", Severity::kError, "more syntax errors than reported in one expression"},
    // The policy file (policy/config, docs/policy.md).
    {"config.yaml-syntax", Severity::kError, "the policy file is not valid YAML"},
    {"config.document.invalid", Severity::kError, "the policy file is not a single YAML map"},
    {"config.api-version.invalid", Severity::kError, "apiVersion is not draguard.dev/v1alpha1"},
    {"config.kind.invalid", Severity::kError, "kind is not Policy"},
    {"config.field.unknown", Severity::kError, "a field the policy file does not have"},
    {"config.field.type", Severity::kError, "a policy field of the wrong type"},
    {"config.kubernetes-version.invalid", Severity::kError,
     "kubernetesVersion is not a known release (1.34, 1.35, 1.36)"},
    {"config.feature-gates.invalid", Severity::kError, "featureGates do not parse for the version"},
    {"config.rule.action.invalid", Severity::kError, "a rule action other than off/info/warning/error"},
    {"config.rule.code.unknown", Severity::kWarning, "a rule that matches no diagnostic code"},
    {"lint.ignore.code.unknown", Severity::kWarning,
     "a `# draguard:ignore` comment names no diagnostic code (it silences nothing)"},
    {"validate.too-many-diagnostics", Severity::kInfo,
     "further findings about one object were suppressed"},
    // Attribute schema checks of selectors and constraints (policy/schema, docs/schema.md).
    {"schema.file.invalid", Severity::kError, "a --schema file that is not the schema format"},
    {"schema.file.unknown-field", Severity::kError, "a field the schema file format does not have"},
    {"schema.slice.type-conflict", Severity::kWarning,
     "one attribute published with different types by different devices"},
    {"schema.slice.type-mismatch", Severity::kWarning,
     "a slice publishes an attribute with another type than the schema declares"},
    {"schema.domain.unknown", Severity::kInfo,
     "an attribute domain no known driver publishes: a private driver's (info) or a typo of a "
     "known domain (warning); error with --strict-schema"},
    {"schema.domain.qualified-name", Severity::kError,
     "a \"domain/name\" string used as the domain in device.attributes[...]"},
    {"schema.attribute.unknown", Severity::kWarning,
     "an attribute the domain does not publish (error with --strict-schema)"},
    {"schema.capacity.unknown", Severity::kWarning,
     "a capacity the domain does not publish (error with --strict-schema)"},
    {"schema.attribute.removed", Severity::kError, "an attribute the driver no longer publishes"},
    {"schema.attribute.deprecated", Severity::kWarning, "an attribute the driver deprecated"},
    {"schema.type.mismatch", Severity::kError,
     "an attribute or capacity compared with a literal or another attribute of another type, or "
     "called as another type"},
    {"schema.value.never-matches", Severity::kError,
     "a string compared with a value outside the attribute's closed set"},
    {"schema.driver.unreachable", Severity::kError,
     "the class pins a driver that does not publish the domain read"},
    {"schema.attribute.not-published", Severity::kError,
     "no device type that can reach the selector publishes the attribute"},
    {"schema.attribute.unguarded", Severity::kWarning,
     "some reachable device types lack the attribute: guard the lookup"},
    {"schema.includes.scalar", Severity::kWarning,
     "includes() on an attribute published as a single string: equality, not a substring "
     "test"},
    {"schema.constraint.attribute.unknown", Severity::kWarning,
     "matchAttribute/distinctAttribute names an attribute its known domain does not publish "
     "(error with --strict-schema)"},
    {"schema.constraint.attribute.not-published", Severity::kError,
     "the constrained requests select only device types without the attribute"},
    {"schema.constraint.attribute.type-mismatch", Severity::kError,
     "the constrained requests' devices publish the attribute with different types (warning "
     "when a type is assumed, or for distinctAttribute)"},
    // Satisfiability against an inventory (lint --inventory; policy/pipeline/satisfiability_stage.h).
    {"alloc.unsatisfiable", Severity::kWarning,
     "no node of the inventory can allocate the claim (error with --unsatisfiable=error)"},
    {"alloc.scheduler-error", Severity::kWarning,
     "the scheduler's allocator fails the claim with an error (the pod's scheduling cycle "
     "aborts) instead of finding a node or none (error with --unsatisfiable=error)"},
    {"alloc.undecided", Severity::kInfo,
     "the allocator's search budget ran out before deciding satisfiability"},
    // The upgrade check (lint --upgrade-to; policy/lint/upgrade.h): what changes between two
    // releases. Severity depends on the change; the column gives the usual one.
    {"upgrade.object.invalid", Severity::kError,
     "the target release rejects an object that the current release accepts"},
    {"upgrade.object.valid", Severity::kInfo,
     "the target release accepts an object that the current release rejects"},
    {"upgrade.api-version", Severity::kWarning,
     "how the API server serves the object's apiVersion changes (not served, deprecated, "
     "served)"},
    {"upgrade.field.dropped", Severity::kWarning,
     "the target release's API server drops a field the current release keeps (a gate is off)"},
    {"upgrade.field.kept", Severity::kInfo,
     "the target release keeps and validates a field the current release drops"},
    {"upgrade.selector", Severity::kWarning,
     "a selector's or constraint's compile, type, schema or cost verdict changes"},
    {"upgrade.claim.satisfiability", Severity::kWarning,
     "the claim's verdict against the inventory changes (error when it becomes unsatisfiable)"},
    {"upgrade.finding.new", Severity::kWarning, "another finding that only the target reports"},
    {"upgrade.finding.gone", Severity::kInfo, "another finding that the target no longer reports"},
    {"upgrade.finding.severity", Severity::kWarning,
     "the same finding (code and field) with another severity"},
    // The admission webhook (webhook/admission: satisfiability_check.h, json_object.h).
    {"webhook.inventory.unavailable", Severity::kWarning,
     "satisfiability not checked: the inventory has not loaded yet or lists no device"},
    {"webhook.inventory.stale", Severity::kWarning,
     "satisfiability not checked: the inventory was not confirmed within --inventory-max-age"},
    {"webhook.object.invalid", Severity::kError,
     "request.object of an AdmissionReview is not a JSON object within the nesting limit"},
});


// What each family of codes (the code's first segment) checks, and where to read more. Part of
// every code's long description (docs/diagnostics.md, SARIF rule help).
struct FamilyInfo {
  std::string_view prefix;
  std::string_view text;
};

constexpr auto kFamilies = std::to_array<FamilyInfo>({
    {"meta",
     "Object metadata is validated as kube-apiserver validates ObjectMeta for every kind: "
     "names, generateName, labels, annotations and what may change on update."},
    {"template",
     "ResourceClaimTemplate rules: the template's own metadata and the immutability of its "
     "spec, as the API server enforces them."},
    {"claim",
     "ResourceClaim and ResourceClaimTemplate specs are validated field by field as "
     "kube-apiserver's resource validation does for the chosen release and feature gates: "
     "requests, subrequests (firstAvailable), counts, constraints, configs, tolerations and "
     "status. Errors carry the API server's field path; warnings name fields the API server "
     "silently drops or changes, or values that pass validation but cannot work."},
    {"selector",
     "Device selectors of claims and classes: their number and the CEL expression's length, "
     "checked before the expression is compiled."},
    {"toleration",
     "Device tolerations of a request, validated as the API server validates them when the "
     "DRADeviceTaints gate is on."},
    {"class",
     "DeviceClass specs: selectors, config entries and the extended resource name, validated "
     "as the API server does for the chosen release and feature gates."},
    {"slice",
     "ResourceSlice specs: pool, node selection, devices, attributes, capacities, counters, "
     "taints and binding conditions, validated as kube-apiserver does for the chosen release "
     "and feature gates. Fields whose gate is off are dropped by the API server; draguard "
     "reports them as warnings and ignores them, as the scheduler will."},
    {"taint",
     "Device taints in ResourceSlices and DeviceTaintRules: key, value and effect, validated "
     "as the API server does."},
    {"taintrule",
     "DeviceTaintRule objects: the device selector and whether the API is served by the "
     "chosen release and gates."},
    {"poolstatus",
     "ResourcePoolStatusRequest (resource.k8s.io/v1alpha3, Kubernetes 1.36, gate "
     "DRAResourcePoolStatus): the spec's driver, pool name and limit, checked as the 1.36 "
     "declarative validation tags of its type define them."},
    {"refs",
     "Cross-object references among the inputs and the --inventory: pods to claims and "
     "templates, containers to pod claims, requests to DeviceClasses. The API server does not "
     "check these at creation; the pod then waits in scheduling."},
    {"decode",
     "Decoding checks the file before any validation: YAML/JSON syntax, size and nesting "
     "limits, strict field decoding (as kubectl --validate=strict), and whether the chosen "
     "release serves the object's apiVersion and kind."},
    {"cel",
     "CEL selector expressions are compiled as the API server compiles a new selector: the "
     "same parser limits, environment (only `device`), type checks and cost estimate. See "
     "docs/cel.md."},
    {"config",
     "The policy file given with --config (docs/policy.md): its shape, version, feature "
     "gates and rule overrides."},
    {"lint",
     "Inline suppression comments (`# draguard:ignore CODE`) and other linter settings; see "
     "docs/cli.md."},
    {"validate",
     "Limits of the validator itself, which keeps reports readable on pathological inputs."},
    {"schema",
     "Attribute schema checks: selectors and constraints are compared with the attributes "
     "each known driver publishes (built-in schemas, --schema files and the --inventory's "
     "slices), catching misspelt names, wrong types and selectors no device can match. See "
     "docs/schema.md."},
    {"alloc",
     "Satisfiability against an inventory (lint or explain with --inventory): the claim is "
     "allocated as the scheduler's structured-parameters allocator would. See "
     "docs/allocator.md; `draguard explain` shows why a node fits or not."},
    {"upgrade",
     "The upgrade check (lint --upgrade-to RELEASE) reports only what changes between the "
     "current and the target release's API server and scheduler."},
    {"webhook",
     "Findings of the admission webhook (draguard serve) itself. See docs/webhook.md."},
});

std::string_view SeverityMeaning(Severity severity) {
  switch (severity) {
    case Severity::kError:
      return "Severity error: the API server (or the scheduler) rejects or fails this; "
             "`draguard lint` exits 1.";
    case Severity::kWarning:
      return "Severity warning: accepted by the API server, but likely not what was meant; "
             "--warnings-as-errors or a policy rule makes it an error.";
    case Severity::kInfo:
      return "Severity info: for information; nothing to fix unless the note says so.";
  }
  return "";
}

const FamilyInfo* FindFamily(std::string_view code) {
  std::string_view prefix = code.substr(0, code.find('.'));
  for (const FamilyInfo& family : kFamilies) {
    if (family.prefix == prefix) return &family;
  }
  return nullptr;
}

// `text` capitalised (unless its first word is an identifier such as "metadata.name" or
// "v1beta1") and ending with a period.
std::string Sentence(std::string_view text) {
  std::string out(text);
  std::string_view first_word = text.substr(0, text.find(' '));
  bool plain_word = !first_word.empty();
  for (char c : first_word) plain_word = plain_word && IsAsciiLower(c);
  if (plain_word) out[0] = static_cast<char>(out[0] - 'a' + 'A');
  if (!out.empty() && out.back() != '.') out += '.';
  return out;
}

}  // namespace

std::span<const CodeInfo> AllCodes() { return kCodes; }

const CodeInfo* FindCode(std::string_view code) {
  for (const CodeInfo& info : kCodes) {
    if (info.code == code) return &info;
  }
  return nullptr;
}

std::string ShortDescription(const CodeInfo& info) { return Sentence(info.summary); }

std::string FullDescription(const CodeInfo& info) {
  std::string out = ShortDescription(info) + " " + std::string(SeverityMeaning(info.severity));
  if (!info.details.empty()) out += " " + Sentence(info.details);
  if (const FamilyInfo* family = FindFamily(info.code)) out += " " + std::string(family->text);
  return out;
}

std::string DocsAnchor(std::string_view code) {
  std::string out;
  for (char c : code) {
    if (c != '.') out += AsciiToLower(c);
  }
  return out;
}

std::string DocsUrl(std::string_view code) {
  return std::string(kDiagnosticsDocUrl) + "#" + DocsAnchor(code);
}

std::string RenderCodeTable() {
  std::string out =
      "# draguard diagnostic codes: API-server-parity validation\n\n"
      "Generated from `policy/diagnostics/codes.cc` by `common_test` "
      "(`DRAGUARD_UPDATE_GOLDEN=1` rewrites it). Errors are what kube-apiserver rejects, with "
      "its field path and message; warnings are draguard's advice. API versions follow the "
      "same line: one the chosen release can never serve (removed, or not yet added) is an "
      "error; one a cluster may enable with `--runtime-config` (the betas, alpha kinds) is a "
      "warning, and DeviceTaintRule counts as enabled when its feature gate is on.\n\n"
      "Each code has a section below with its long description; SARIF output "
      "(`--output sarif`) links every rule to its section.\n\n"
      "| Code | Severity | Meaning |\n| --- | --- | --- |\n";
  for (const CodeInfo& info : kCodes) {
    out += "| [`" + std::string(info.code) + "`](#" + DocsAnchor(info.code) + ") | " +
           std::string(SeverityName(info.severity)) + " | " + std::string(info.summary) +
           " |\n";
  }
  out += "\n## Codes\n";
  for (const CodeInfo& info : kCodes) {
    out += "\n### " + std::string(info.code) + "\n\n" + FullDescription(info) + "\n";
  }
  return out;
}

}  // namespace draguard::diagnostics
