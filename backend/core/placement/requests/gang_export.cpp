#include "core/placement/requests/gang_export.h"

#include "core/text/hostlist.h"
#include "core/text/json_text.h"
#include "core/topology/label_selector.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <utility>
#include <vector>

namespace topodeck {

namespace {

constexpr std::string_view kHostnameLabel = "kubernetes.io/hostname";

using Annotations = std::vector<std::pair<std::string, std::string>>;

// JSON string literals are YAML double-quoted scalars: one escaping for every value written.
std::string quoted(std::string_view text) {
    std::string out;
    appendJsonString(out, text);
    return out;
}

// A DNS label (RFC 1123) from a gang's name, which may hold "/" ("train/group-0").
std::string objectName(std::string_view name) {
    std::string out;
    for (char c : name) {
        const char lower = (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c;
        if ((lower >= 'a' && lower <= 'z') || (lower >= '0' && lower <= '9')) out += lower;
        else if (!out.empty() && out.back() != '-') out += '-';
    }
    if (out.size() > 63) out.resize(63);
    while (!out.empty() && out.back() == '-') out.pop_back();
    return out.empty() ? "gang" : out;
}

std::string levelList(const TopologySpec& spec) {
    std::string out;
    for (const TopologyLevel& level : spec.levels) out += (out.empty() ? "" : ", ") + level.name;
    return out.empty() ? "no levels" : out;
}

// The label key Kueue and KAI read for a level named by key or short name.
Result<std::string> labelKeyOf(const TopologySpec& spec, const std::string& level) {
    if (level == kHostnameLabel || level == "hostname") return std::string(kHostnameLabel);
    const int index = spec.levelIndex(level);
    if (index >= 0 && spec.readFromLabels()) return spec.levels[static_cast<std::size_t>(index)].nodeLabel;
    // A label key the hierarchy shown does not list (Kueue's levels, not the HyperNodes') is still one.
    if (labelKeyProblem(level).empty() && level.find('/') != std::string::npos) return level;
    if (index >= 0)
        return Error{"level \"" + level + "\" comes from " + spec.origin +
                     ", not a node label; Kueue and KAI name levels by label key: give the key"};
    return Error{"level \"" + level + "\" is not in the hierarchy (" + levelList(spec) + ")"};
}

// YAML written a line at a time, two spaces per indent.
class YamlText {
public:
    void line(int indent, std::string_view text) {
        m_text.append(static_cast<std::size_t>(indent) * 2, ' ');
        m_text += text;
        m_text += '\n';
    }
    void field(int indent, std::string_view key, std::string_view quotedValue) {
        line(indent, std::string(key) + ": " + std::string(quotedValue));
    }
    void map(int indent, std::string_view key, const Annotations& entries) {
        if (entries.empty()) return;
        line(indent, std::string(key) + ':');
        for (const auto& [name, value] : entries) field(indent + 1, quoted(name), quoted(value));
    }
    std::string take() { return std::move(m_text); }

private:
    std::string m_text;
};

bool extendedResource(std::string_view name) {
    return name.find('/') != std::string_view::npos || name.starts_with("hugepages-");
}

// What a pod template holds: its annotations (read per template), and the pod's shape.
struct PodTemplateText {
    Annotations annotations;
    std::string schedulerName;
    std::string restartPolicy;
};

void writePodTemplate(YamlText& out, int indent, const GangPart& part, const PodTemplateText& pod,
                      const std::string& image) {
    if (!pod.annotations.empty()) {
        out.line(indent, "metadata:");
        out.map(indent + 1, "annotations", pod.annotations);
    }
    out.line(indent, "spec:");
    const int spec = indent + 1;
    if (!pod.schedulerName.empty()) out.field(spec, "schedulerName", quoted(pod.schedulerName));
    if (!pod.restartPolicy.empty()) out.field(spec, "restartPolicy", quoted(pod.restartPolicy));
    out.map(spec, "nodeSelector", part.nodeSelector);
    if (!part.tolerations.empty()) {
        out.line(spec, "tolerations:");
        for (const Toleration& toleration : part.tolerations) {
            std::string item = "- operator: " + quoted(toleration.op);
            out.line(spec, item);
            if (!toleration.key.empty()) out.field(spec + 1, "key", quoted(toleration.key));
            if (!toleration.value.empty()) out.field(spec + 1, "value", quoted(toleration.value));
            if (!toleration.effect.empty()) out.field(spec + 1, "effect", quoted(toleration.effect));
        }
    }
    out.line(spec, "containers:");
    out.line(spec, "- name: \"trainer\"");
    out.field(spec + 1, "image", quoted(image));
    if (part.perPod.empty()) return;
    Annotations requests, limits;
    for (const auto& [name, quantity] : part.perPod) {
        if (quantity.isZero()) continue;
        requests.emplace_back(name, quantity.toString());
        // Extended resources cannot be overcommitted: the API server wants limits equal to requests.
        if (extendedResource(name)) limits.emplace_back(name, quantity.toString());
    }
    out.line(spec + 1, "resources:");
    out.map(spec + 2, "requests", requests);
    out.map(spec + 2, "limits", limits);
}

Result<Annotations> kueueAnnotations(const KueueConstraint& kueue, const TopologySpec& spec) {
    Annotations out;
    auto level = [&](const char* annotation, const std::string& name) -> Status {
        auto key = labelKeyOf(spec, name);
        if (!key) return key.error();
        out.emplace_back(annotation, *key);
        return {};
    };
    if (kueue.mode == KueueConstraint::Mode::Required) {
        if (Status s = level("kueue.x-k8s.io/podset-required-topology", kueue.level); !s) return s.error();
    } else if (kueue.mode == KueueConstraint::Mode::Preferred) {
        if (Status s = level("kueue.x-k8s.io/podset-preferred-topology", kueue.level); !s) return s.error();
    } else if (kueue.mode == KueueConstraint::Mode::Unconstrained) {
        out.emplace_back("kueue.x-k8s.io/podset-unconstrained-topology", "true");
    }
    if (kueue.slices.size() == 1) {
        if (Status s = level("kueue.x-k8s.io/podset-slice-required-topology", kueue.slices.front().level); !s)
            return s.error();
        out.emplace_back("kueue.x-k8s.io/podset-slice-size", std::to_string(kueue.slices.front().size));
    } else if (kueue.slices.size() > 1) {
        std::string layers = "[";
        for (const SliceLayer& layer : kueue.slices) {
            auto key = labelKeyOf(spec, layer.level);
            if (!key) return key.error();
            if (layers.size() > 1) layers += ',';
            layers += "{\"topology\":";
            appendJsonString(layers, *key);
            layers += ",\"size\":" + std::to_string(layer.size) + '}';
        }
        out.emplace_back("kueue.x-k8s.io/podset-slice-required-topology-constraints", layers + ']');
    }
    if (!kueue.group.empty()) out.emplace_back("kueue.x-k8s.io/podset-group-name", kueue.group);
    return out;
}

// KAI's job-level annotations (the top object's metadata) and the segment ones (the workers'
// template).
struct KaiAnnotations {
    Annotations object;
    Annotations segments;
};

Result<KaiAnnotations> kaiAnnotations(const GangRequest& gang, const TopologySpec& spec) {
    KaiAnnotations out;
    const KaiConstraint& kai = gang.kai;
    auto add = [&](Annotations& to, const char* annotation, const std::string& level) -> Status {
        if (level.empty()) return {};
        auto key = labelKeyOf(spec, level);
        if (!key) return key.error();
        to.emplace_back(annotation, *key);
        return {};
    };
    if (Status s = add(out.object, "kai.scheduler/topology-required-placement", kai.required); !s) return s.error();
    if (Status s = add(out.object, "kai.scheduler/topology-preferred-placement", kai.preferred); !s) return s.error();
    if (kai.segmentSize > 0) {
        out.segments.emplace_back("kai.scheduler/segment-size", std::to_string(kai.segmentSize));
        if (Status s = add(out.segments, "kai.scheduler/segment-topology-required-placement", kai.segmentRequired); !s)
            return s.error();
        if (Status s = add(out.segments, "kai.scheduler/segment-topology-preferred-placement", kai.segmentPreferred);
            !s)
            return s.error();
    }
    // KAI places by topology only under a named Topology object.
    if (!out.object.empty() || !out.segments.empty()) {
        const std::string name = !gang.topologyName.empty() ? gang.topologyName
                                 : !spec.name.empty()        ? spec.name
                                                             : std::string("default");
        out.object.insert(out.object.begin(), {"kai.scheduler/topology", name});
    }
    return out;
}

// "tier-3" as topodeck names an unnamed HyperNode tier.
std::optional<std::int32_t> unnamedTier(std::string_view name) {
    if (!name.starts_with("tier-")) return std::nullopt;
    std::int32_t tier = 0;
    const auto [end, error] = std::from_chars(name.data() + 5, name.data() + name.size(), tier);
    if (error != std::errc() || end != name.data() + name.size()) return std::nullopt;
    return tier;
}

void writeVolcanoTopology(YamlText& out, int indent, const VolcanoTopology& topology, const TopologySpec& spec) {
    out.line(indent, "networkTopology:");
    out.field(indent + 1, "mode", topology.hard ? "\"hard\"" : "\"soft\"");
    if (topology.highestTierAllowed) {
        out.line(indent + 1, "highestTierAllowed: " + std::to_string(*topology.highestTierAllowed));
        return;
    }
    if (topology.highestTierName.empty()) return;
    // A level named as topodeck shows it is the tier Volcano knows it by: derived HyperNodes
    // carry the level's short name as tierName, and an unnamed tier is only its number.
    std::string name = topology.highestTierName;
    if (const int level = spec.levelIndex(name); level >= 0) name = spec.levels[static_cast<std::size_t>(level)].name;
    if (const std::optional<std::int32_t> tier = unnamedTier(name); tier && !spec.readFromLabels())
        out.line(indent + 1, "highestTierAllowed: " + std::to_string(*tier));
    else
        out.field(indent + 1, "highestTierName", quoted(name));
}

void writeHeader(YamlText& out, const GangRequest& gang, std::string_view apiVersion, std::string_view kind,
                 const Annotations& labels, const Annotations& annotations) {
    out.field(0, "apiVersion", quoted(apiVersion));
    out.field(0, "kind", quoted(kind));
    out.line(0, "metadata:");
    out.field(1, "name", quoted(objectName(gang.name)));
    out.field(1, "namespace", quoted(gang.nameSpace.empty() ? "default" : gang.nameSpace));
    out.map(1, "labels", labels);
    out.map(1, "annotations", annotations);
}

Result<std::string> volcanoJob(const GangRequest& gang, const TopologySpec& spec, const GangExportOptions& options) {
    YamlText out;
    out.line(0, "# Volcano Job " + gang.name + ": written by topodeckctl export gang");
    writeHeader(out, gang, "batch.volcano.sh/v1alpha1", "Job", {}, {});
    out.line(0, "spec:");
    out.field(1, "schedulerName", "\"volcano\"");
    out.field(1, "queue", quoted(options.queue));
    out.line(1, "minAvailable: " + std::to_string(gang.volcano.minAvailable.value_or(gang.pods)));
    if (gang.volcano.networkTopology) writeVolcanoTopology(out, 1, *gang.volcano.networkTopology, spec);
    out.line(1, "tasks:");
    for (const GangPart& part : gang.partsOrWhole()) {
        out.line(1, "- name: " + quoted(objectName(gang.heterogeneous() ? part.name : "worker")));
        out.line(2, "replicas: " + std::to_string(part.pods));
        const VolcanoConstraint& volcano = part.volcano;
        // A task's own minimum; with minPartitions the webhook derives it from them.
        if (gang.heterogeneous() && volcano.minAvailable && *volcano.minAvailable != part.pods &&
            volcano.minPartitions == 0)
            out.line(2, "minAvailable: " + std::to_string(*volcano.minAvailable));
        if (volcano.partitionSize > 0) {
            if (part.pods % volcano.partitionSize != 0)
                return Error{"part " + part.name + ": " + std::to_string(part.pods) +
                             " pods do not split into partitions of " + std::to_string(volcano.partitionSize)};
            out.line(2, "partitionPolicy:");
            out.line(3, "totalPartitions: " + std::to_string(part.pods / volcano.partitionSize));
            out.line(3, "partitionSize: " + std::to_string(volcano.partitionSize));
            if (volcano.minPartitions > 0) out.line(3, "minPartitions: " + std::to_string(volcano.minPartitions));
            if (volcano.partitionTopology) writeVolcanoTopology(out, 3, *volcano.partitionTopology, spec);
        }
        out.line(2, "template:");
        writePodTemplate(out, 3, part, {{}, {}, "Never"}, options.image);
    }
    return out.take();
}

// The kinds of pod a workload spells as one template each, in its order.
struct TemplateSlot {
    const GangPart* part;
    std::string name; // replicatedJob name, PyTorchJob replica type, LWS template
};

// A one-pod coordinator and its workers: a PyTorchJob's master, a LeaderWorkerSet group's leader.
bool leaderAndWorkers(const std::vector<GangPart>& parts) {
    return parts.size() == 2 && parts[0].pods == 1 && (parts[0].name == "master" || parts[0].name == "leader") &&
           parts[1].name == "worker";
}

} // namespace

std::optional<GangWorkload> gangWorkloadNamed(std::string_view name) {
    if (name == "job") return GangWorkload::Job;
    if (name == "jobset") return GangWorkload::JobSet;
    if (name == "pytorchjob") return GangWorkload::PyTorchJob;
    if (name == "leaderworkerset" || name == "lws") return GangWorkload::LeaderWorkerSet;
    if (name == "volcanojob") return GangWorkload::VolcanoJob;
    return std::nullopt;
}

Result<std::string> gangManifestYaml(const GangRequest& gang, const TopologySpec& spec,
                                     const GangExportOptions& options) {
    if (gang.pods <= 0) return Error{"the gang has no pods"};
    if (options.scheduler == GangScheduler::Volcano || options.workload == GangWorkload::VolcanoJob) {
        if (options.scheduler != GangScheduler::Volcano || options.workload != GangWorkload::VolcanoJob)
            return Error{"Volcano places gangs from its own Job (batch.volcano.sh): use the volcanojob kind with Volcano"};
        return volcanoJob(gang, spec, options);
    }
    const bool kai = options.scheduler == GangScheduler::Kai;
    const std::vector<GangPart> parts = gang.partsOrWhole();

    // Which template holds which part, as each workload spells its kinds of pod.
    std::vector<TemplateSlot> slots;
    std::string kindName;
    switch (options.workload) {
    case GangWorkload::Job:
        kindName = "Job";
        if (parts.size() > 1) return Error{"a Job has one kind of pod and this gang has " + std::to_string(parts.size()) +
                                           ": use jobset (a replicatedJob each) or the kind it came from"};
        slots.push_back({&parts[0], {}});
        break;
    case GangWorkload::JobSet:
        kindName = "JobSet";
        for (const GangPart& part : parts) slots.push_back({&part, objectName(gang.heterogeneous() ? part.name : "workers")});
        break;
    case GangWorkload::PyTorchJob:
        kindName = "PyTorchJob";
        if (parts.size() == 1) slots.push_back({&parts[0], "Worker"});
        else if (leaderAndWorkers(parts)) slots = {{&parts[0], "Master"}, {&parts[1], "Worker"}};
        else return Error{"a PyTorchJob has one master and workers; this gang's kinds of pod are not those: use jobset"};
        break;
    case GangWorkload::LeaderWorkerSet:
        kindName = "LeaderWorkerSet";
        if (parts.size() == 1) slots.push_back({&parts[0], "workerTemplate"});
        else if (leaderAndWorkers(parts)) slots = {{&parts[0], "leaderTemplate"}, {&parts[1], "workerTemplate"}};
        else return Error{"a LeaderWorkerSet group is a leader and workers; this gang's kinds of pod are not those: use jobset"};
        break;
    case GangWorkload::VolcanoJob: break; // above
    }

    KaiAnnotations kaiText;
    if (kai) {
        auto read = kaiAnnotations(gang, spec);
        if (!read) return read.error();
        kaiText = std::move(*read);
        const bool segmenting = options.workload == GangWorkload::PyTorchJob || options.workload == GangWorkload::LeaderWorkerSet;
        if (!kaiText.segments.empty() && !segmenting)
            return Error{"KAI cuts segments only from a PyTorchJob's or LeaderWorkerSet's workers: use pytorchjob or leaderworkerset"};
    }
    std::vector<PodTemplateText> templates;
    for (const TemplateSlot& slot : slots) {
        PodTemplateText pod;
        pod.restartPolicy = options.workload == GangWorkload::LeaderWorkerSet ? "" : options.workload == GangWorkload::PyTorchJob ? "OnFailure" : "Never";
        if (kai) {
            pod.schedulerName = "kai-scheduler";
            const bool workers = slot.name == "Worker" || slot.name == "workerTemplate";
            if (workers) pod.annotations = kaiText.segments;
        } else {
            auto annotations = kueueAnnotations(slot.part->kueue, spec);
            if (!annotations) return Error{(gang.heterogeneous() ? "part " + slot.part->name + ": " : std::string()) + annotations.error().message};
            pod.annotations = std::move(*annotations);
        }
        templates.push_back(std::move(pod));
    }

    const Annotations labels = {{kai ? "kai.scheduler/queue" : "kueue.x-k8s.io/queue-name", options.queue}};
    YamlText out;
    out.line(0, "# " + kindName + ' ' + gang.name + " for " + (kai ? "KAI" : "Kueue") + ": written by topodeckctl export gang");
    const std::string_view apiVersion = options.workload == GangWorkload::Job          ? "batch/v1"
                                        : options.workload == GangWorkload::JobSet     ? "jobset.x-k8s.io/v1alpha2"
                                        : options.workload == GangWorkload::PyTorchJob ? "kubeflow.org/v1"
                                                                                       : "leaderworkerset.x-k8s.io/v1";
    writeHeader(out, gang, apiVersion, kindName, labels, kaiText.object);
    out.line(0, "spec:");
    auto jobSpec = [&](int indent, const TemplateSlot& slot, const PodTemplateText& pod) {
        out.line(indent, "parallelism: " + std::to_string(slot.part->pods));
        out.line(indent, "completions: " + std::to_string(slot.part->pods));
        out.field(indent, "completionMode", "\"Indexed\"");
        out.line(indent, "template:");
        writePodTemplate(out, indent + 1, *slot.part, pod, options.image);
    };
    switch (options.workload) {
    case GangWorkload::Job: jobSpec(1, slots[0], templates[0]); break;
    case GangWorkload::JobSet:
        out.line(1, "replicatedJobs:");
        for (std::size_t i = 0; i < slots.size(); ++i) {
            out.line(1, "- name: " + quoted(slots[i].name));
            out.line(2, "replicas: 1");
            out.line(2, "template:");
            out.line(3, "spec:");
            jobSpec(4, slots[i], templates[i]);
        }
        break;
    case GangWorkload::PyTorchJob:
        out.line(1, "pytorchReplicaSpecs:");
        for (std::size_t i = 0; i < slots.size(); ++i) {
            out.line(2, slots[i].name + ':');
            out.line(3, "replicas: " + std::to_string(slots[i].part->pods));
            out.line(3, "template:");
            writePodTemplate(out, 4, *slots[i].part, templates[i], options.image);
        }
        break;
    case GangWorkload::LeaderWorkerSet: {
        std::int32_t size = 0;
        for (const TemplateSlot& slot : slots) size += slot.part->pods;
        out.line(1, "replicas: 1");
        out.line(1, "leaderWorkerTemplate:");
        out.line(2, "size: " + std::to_string(size));
        for (std::size_t i = 0; i < slots.size(); ++i) {
            out.line(2, slots[i].name + ':');
            writePodTemplate(out, 3, *slots[i].part, templates[i], options.image);
        }
        break;
    }
    case GangWorkload::VolcanoJob: break;
    }
    return out.take();
}

namespace {

std::string durationText(std::int64_t seconds) {
    const std::int64_t hours = seconds / 3600, minutes = seconds / 60 % 60, rest = seconds % 60;
    auto two = [](std::int64_t n) { return (n < 10 ? "0" : "") + std::to_string(n); };
    return std::to_string(hours) + ':' + two(minutes) + ':' + two(rest);
}

// Whole units, rounded up: a request Slurm cannot take in fractions must not shrink.
std::int64_t unitsUp(const Quantity& quantity, std::int64_t unit) {
    const __int128 perUnit = __int128(unit) * 1'000'000'000;
    return static_cast<std::int64_t>((quantity.nanos() + perUnit - 1) / perUnit);
}

void slurmOptions(std::vector<std::string>& out, const SlurmRequest& s) {
    out.push_back("--nodes=" + std::to_string(s.minNodes) +
                  (s.maxNodes > s.minNodes ? '-' + std::to_string(s.maxNodes) : std::string()));
    if (s.gpusPerNode > 0) out.push_back("--gpus-per-node=" + std::to_string(s.gpusPerNode));
    if (s.ntasks > 0) {
        out.push_back("--ntasks=" + std::to_string(s.ntasks));
        if (s.cpusPerTask > 1) out.push_back("--cpus-per-task=" + std::to_string(s.cpusPerTask));
    } else if (s.cpusPerNode > 0) {
        out.push_back("--ntasks-per-node=1");
        out.push_back("--cpus-per-task=" + std::to_string(s.cpusPerNode));
    }
    if (s.memoryPerNodeMiB > 0) out.push_back("--mem=" + std::to_string(s.memoryPerNodeMiB) + 'M');
    if (s.exclusive) out.push_back("--exclusive");
    if (s.switches)
        out.push_back("--switches=" + std::to_string(*s.switches) +
                      (s.switchesWaitSeconds >= 0 ? '@' + durationText(s.switchesWaitSeconds) : std::string()));
    if (s.segment > 0) out.push_back("--segment=" + std::to_string(s.segment));
    if (s.spreadSegments) out.push_back("--spread-segments");
    if (s.consolidateSegments) out.push_back("--consolidate-segments");
    if (s.contiguous) out.push_back("--contiguous");
    if (!s.requiredNodes.empty()) out.push_back("--nodelist=" + compressHostlist(s.requiredNodes));
    if (!s.excludedNodes.empty()) out.push_back("--exclude=" + compressHostlist(s.excludedNodes));
    if (!s.partition.empty()) out.push_back("--partition=" + s.partition);
}

} // namespace

Result<std::string> gangBatchScript(const GangRequest& gang, const TopologySpec& spec, const GpuResources& gpus,
                                    bool blockTopology) {
    if (gang.pods <= 0) return Error{"the gang has no pods"};
    if (gang.heterogeneous())
        return Error{"an sbatch job's nodes are alike and this gang has " + std::to_string(gang.parts.size()) +
                     " kinds of pod: export one part (--gang NAME/PART)"};
    std::vector<std::string> options, notes;
    std::string jobName;
    for (char c : gang.name) jobName += (c == ' ' || c == '\t' || c == '/' || c == '\'' || c == '"') ? '-' : c;
    options.push_back("--job-name=" + jobName);
    if (gang.slurm) {
        slurmOptions(options, *gang.slurm);
    } else {
        SlurmRequest s;
        s.minNodes = s.maxNodes = gang.pods;
        s.gpusPerNode = static_cast<std::int32_t>(gpusPerPod(gang, gpus));
        if (const Quantity cpu = gang.perPod.get("cpu"); !cpu.isZero()) s.cpusPerNode = static_cast<std::int32_t>(unitsUp(cpu, 1));
        if (const Quantity memory = gang.perPod.get("memory"); !memory.isZero())
            s.memoryPerNodeMiB = unitsUp(memory, 1024 * 1024);
        for (const auto& [name, quantity] : gang.perPod)
            if (name != "cpu" && name != "memory" && !gpus.matches(name) && !quantity.isZero())
                notes.push_back("not asked of Slurm: " + name + "=" + quantity.toString() + " per pod (no sbatch option)");
        if (!gang.nodeSelector.empty()) notes.push_back("not asked of Slurm: the pods' nodeSelector (use --constraint with node features)");

        // The lowest level is what Slurm's topology plugins group nodes by: the leaf switch
        // (tree) or the base block (block).
        const int lowest = spec.depth() - 1;
        auto atLowest = [&](const std::string& level) { return lowest >= 0 && spec.levelIndex(level) == lowest; };
        const KueueConstraint& kueue = gang.kueue;
        const bool required = kueue.mode == KueueConstraint::Mode::Required;
        if (required && atLowest(kueue.level)) {
            if (blockTopology) s.segment = gang.pods;
            else s.switches = 1;
        } else if (kueue.mode == KueueConstraint::Mode::Required || kueue.mode == KueueConstraint::Mode::Preferred) {
            notes.push_back(std::string(required ? "required" : "preferred") + " level " + kueue.level +
                            ": sbatch has no option for it; Slurm's " + (blockTopology ? "block" : "tree") +
                            " plugin still packs the job into as few " + (blockTopology ? "blocks" : "switches") +
                            " as it can");
        }
        if (!kueue.slices.empty()) {
            const SliceLayer& inner = kueue.slices.back();
            if (blockTopology && atLowest(inner.level) && kueue.slices.size() == 1) s.segment = inner.size;
            else notes.push_back("slices of " + std::to_string(inner.size) + " pods per " + inner.level +
                                 ": sbatch has no option for it" + (blockTopology ? "" : " under topology/tree"));
        }
        slurmOptions(options, s);
    }
    std::string out = "#!/bin/bash\n# " + gang.name + ": written by topodeckctl export gang";
    if (!gang.source.empty()) out += " from " + gang.source;
    out += '\n';
    for (const std::string& note : notes) out += "# " + note + '\n';
    for (const std::string& option : options) out += "#SBATCH " + option + '\n';
    out += "\nsrun --kill-on-bad-exit=1 ./train.sh # replace with the job's steps\n";
    return out;
}

} // namespace topodeck
