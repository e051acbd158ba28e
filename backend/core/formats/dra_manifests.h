#pragma once
// The DRA objects (resource.k8s.io) as v1 manifests in JSON, with every field the model keeps, so
// that the readers (dra_object_readers.h) read back equal objects. metadata.resourceVersion is
// written when the object has one, as for the topology objects (object_manifests.h). NVIDIA's
// ComputeDomain too, as resource.nvidia.com/v1beta1 (compute_domain_readers.h reads it back).

#include "core/model/compute_domain.h"
#include "core/model/dra.h"
#include "core/text/json_writer.h"

namespace topodeck {

void writeResourceSliceManifest(JsonWriter& json, const ResourceSlice& slice);
void writeResourceClaimManifest(JsonWriter& json, const ResourceClaim& claim);
void writeResourceClaimTemplateManifest(JsonWriter& json, const ResourceClaimTemplate& claimTemplate);
void writeDeviceClassManifest(JsonWriter& json, const DeviceClass& deviceClass);
void writeComputeDomainManifest(JsonWriter& json, const ComputeDomain& domain);

} // namespace topodeck
