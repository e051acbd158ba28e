#pragma once

#include "core/changes/plan_apply.h"
#include "net/kube_credentials.h"

#include <chrono>
#include <memory>
#include <string>

namespace topodeck {

struct KubePatchOptions {
    std::string fieldManager = "topodeck"; // what managedFields records the labels under
    int parallel = 8;                      // connections, each with requests one after another
    std::chrono::milliseconds timeout{30000};
};

// Sends node patches to the API server: PATCH /api/v1/nodes/NAME?fieldManager=... as
// application/json-patch+json (?dryRun=All&fieldManager=... for a dry run), on up to `parallel` kept-alive
// connections at once. A 403 answer says which verb on which resource the user lacks (the
// server's own words). The sender keeps its connections between calls; one call at a time.
PatchSender kubePatchSender(std::shared_ptr<KubeCredentials> credentials, KubePatchOptions options = {});

// Sends object changes as objectRequest() makes them, one at a time on one kept-alive connection.
// A change is sent in the API version it names when the server serves it, else in the newest one
// the server serves of those topodeck knows for the kind (Kueue: v1beta2, v1beta1, v1alpha1; the
// schemas topodeck writes are the same in each), so that a plan applies to an older Kueue. A 403
// says which verb on which resource is missing, in the server's words.
ObjectSender kubeObjectSender(std::shared_ptr<KubeCredentials> credentials, KubePatchOptions options = {});

} // namespace topodeck
