#include "core/pod_requests.h"

namespace topodeck {

namespace {

// The API server rounds every stored quantity up (away from zero) to a whole milli-unit
// (SetDefaults_ResourceList), so a manifest's "0.1m" is scheduled as "1m".
Quantity roundedUpToMilli(const Quantity& quantity) {
    constexpr __int128 kNanosPerMilli = 1'000'000;
    const __int128 nanos = quantity.nanos();
    const __int128 remainder = nanos % kNanosPerMilli;
    if (remainder == 0) return quantity;
    const __int128 truncated = nanos - remainder;
    Quantity result = Quantity::fromNanos(truncated, quantity.format());
    // += saturates rather than overflowing; the addend carries the format for a zero `truncated`.
    result += Quantity::fromNanos(remainder > 0 ? kNanosPerMilli : -kNanosPerMilli, quantity.format());
    return result;
}

ResourceList roundedUpToMilli(const ResourceList& list) {
    ResourceList result;
    for (const auto& [name, quantity] : list) result.set(name, roundedUpToMilli(quantity));
    return result;
}

// A container's requests after API defaulting: a resource with a limit but no request is
// requested at its limit (SetDefaults_Pod). An explicit request, even zero, is kept.
ResourceList defaultedRequests(const ContainerResources& container) {
    ResourceList requests = roundedUpToMilli(container.requests);
    for (const auto& [name, limit] : container.limits)
        if (!container.requests.contains(name)) requests.set(name, roundedUpToMilli(limit));
    return requests;
}

} // namespace

ResourceList effectivePodRequests(const PodResourceSpec& spec) {
    ResourceList requests;
    for (const ContainerResources& container : spec.containers) requests.add(defaultedRequests(container));

    // Init containers run one at a time, each next to the sidecars started before it; sidecars
    // (restartPolicy: Always) keep running alongside the app containers (KEP-753).
    ResourceList sidecars;
    ResourceList initPeak;
    for (const ContainerResources& container : spec.initContainers) {
        ResourceList own = defaultedRequests(container);
        if (container.restartAlways) {
            requests.add(own);
            sidecars.add(own);
            initPeak.maxWith(sidecars);
        } else {
            own.add(sidecars);
            initPeak.maxWith(own);
        }
    }
    requests.maxWith(initPeak);

    requests.add(roundedUpToMilli(spec.overhead));
    return requests;
}

} // namespace topodeck
