// What the YAML guard costs (issue: hardening). The largest YAML topodeck reads is a kubectl
// List of a whole cluster: 10,000 Nodes as `kubectl get nodes -o yaml` writes them (labels,
// annotations, addresses, capacity, conditions, node info; about 1.8 KB each, 18 MB). Measured in
// one run:
//  - BM_ReadSnapshot: readSnapshotText, what `show -f` and the GUI do: guard, yaml-cpp, reader;
//  - BM_Guard: the guard alone (libyaml reading every event, depth and alias bookkeeping);
//  - BM_YamlCppLoad: yaml-cpp's LoadAll alone, the unguarded load.
// The guard's cost is BM_Guard / (BM_ReadSnapshot - BM_Guard): the target is 10 % or less.

#include "core/formats/snapshot_reader.h"
#include "core/formats/yaml_document.h"

#include <benchmark/benchmark.h>

#include <string>

using namespace topodeck;

namespace {

std::string nodeListYaml(int nodes) {
    std::string out = "apiVersion: v1\nitems:\n";
    for (int i = 0; i < nodes; ++i) {
        const std::string n = std::to_string(i);
        const std::string name = "gpu-" + std::string(5 - std::min<std::size_t>(5, n.size()), '0') + n;
        out += "- apiVersion: v1\n  kind: Node\n  metadata:\n    annotations:\n"
               "      node.alpha.kubernetes.io/ttl: \"0\"\n"
               "      volumes.kubernetes.io/controller-managed-attach-detach: \"true\"\n"
               "    creationTimestamp: \"2026-01-01T00:00:00Z\"\n    labels:\n"
               "      kubernetes.io/arch: amd64\n      kubernetes.io/hostname: " + name + "\n"
               "      network.topology.example.com/block: block-" + std::to_string(i / 512) + "\n"
               "      network.topology.example.com/rack: rack-" + std::to_string(i / 18) + "\n"
               "      node.kubernetes.io/instance-type: p5.48xlarge\n"
               "      nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3\n"
               "      topology.kubernetes.io/zone: us-east-1a\n"
               "    name: " + name + "\n    resourceVersion: \"" + std::to_string(1000 + i) + "\"\n"
               "    uid: 0c9f3a52-" + n + "-4c1e-9a39-2b1f5c2d7e10\n"
               "  spec:\n    providerID: aws:///us-east-1a/i-0" + n + "\n"
               "  status:\n    addresses:\n    - address: 10.0." + std::to_string(i / 256) + '.' + std::to_string(i % 256) +
               "\n      type: InternalIP\n    - address: " + name + "\n      type: Hostname\n"
               "    allocatable:\n      cpu: \"191\"\n      ephemeral-storage: \"27955204725\"\n"
               "      memory: 2043789316Ki\n      nvidia.com/gpu: \"8\"\n      pods: \"110\"\n"
               "    capacity:\n      cpu: \"192\"\n      ephemeral-storage: 30331484Ki\n      memory: 2097152000Ki\n"
               "      nvidia.com/gpu: \"8\"\n      pods: \"110\"\n    conditions:\n"
               "    - lastHeartbeatTime: \"2026-11-30T10:00:00Z\"\n      lastTransitionTime: \"2026-01-01T00:00:00Z\"\n"
               "      message: kubelet has sufficient memory available\n      reason: KubeletHasSufficientMemory\n"
               "      status: \"False\"\n      type: MemoryPressure\n"
               "    - lastHeartbeatTime: \"2026-11-30T10:00:00Z\"\n      lastTransitionTime: \"2026-01-01T00:00:00Z\"\n"
               "      message: kubelet is posting ready status\n      reason: KubeletReady\n"
               "      status: \"True\"\n      type: Ready\n"
               "    nodeInfo:\n      architecture: amd64\n      containerRuntimeVersion: containerd://1.7.11\n"
               "      kernelVersion: 6.1.0-18-amd64\n      kubeletVersion: v1.30.2\n      operatingSystem: linux\n"
               "      osImage: Debian GNU/Linux 12 (bookworm)\n";
    }
    return out + "kind: List\nmetadata:\n  resourceVersion: \"\"\n";
}

const std::string& listOf10kNodes() {
    static const std::string text = nodeListYaml(10000);
    return text;
}

void BM_ReadSnapshot(benchmark::State& state) {
    const std::string& text = listOf10kNodes();
    for (auto _ : state) {
        Result<Snapshot> snapshot = readSnapshotText(text, "nodes.yaml");
        if (!snapshot || snapshot->nodes.size() != 10000) state.SkipWithError("the list did not read");
        benchmark::DoNotOptimize(snapshot);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}

void BM_Guard(benchmark::State& state) {
    const std::string& text = listOf10kNodes();
    for (auto _ : state) {
        Status checked = checkYamlText(text, "nodes.yaml");
        if (!checked) state.SkipWithError(checked.error().message.c_str());
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}

void BM_YamlCppLoad(benchmark::State& state) {
    const std::string& text = listOf10kNodes();
    for (auto _ : state) benchmark::DoNotOptimize(YAML::LoadAll(text));
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}

} // namespace

BENCHMARK(BM_ReadSnapshot)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_Guard)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_YamlCppLoad)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK_MAIN();
