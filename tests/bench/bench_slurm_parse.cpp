// Parse figures for the Slurm readers at 20,000 nodes: a synthetic `sinfo --json` reply in the
// 22.05 (v0.0.38) shape, the same cluster in slurmrestd's v0.0.40 (23.11) shape, `squeue --json`
// with 5,000 running jobs over those nodes, and the cluster's topology.conf (leaves of 18 nodes,
// spines of 16 leaves, a core). The node and job objects are those of
// tests/data/slurm/live/nodes-v0.0.38.json / jobs-v0.0.38.json (Slurm 22.05.8) and
// tests/data/slurm/json/nodes-v0.0.40.json, with names, states and counts varied.
// Counters: reply_MB (the text parsed per iteration), nodes/jobs/switches read; bytes/s from
// SetBytesProcessed. Target: each parse well under 1 s. BM_PollCycle20k: one whole poll of the
// Slurm source's (both replies changed) in process CPU time; target 200 ms per 5 s poll.
#include "core/model/cluster_state.h"
#include "core/slurm/slurm_cluster.h"
#include "core/slurm/slurm_json.h"
#include "core/slurm/slurm_topology.h"
#include "core/topology/topology_index.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

using namespace topodeck;

namespace {

constexpr int kNodes = 20000;
constexpr int kJobs = 5000;
constexpr int kNodesPerJob = kNodes / kJobs;

using Fields = std::vector<std::pair<std::string_view, std::string>>;

// Replaces every @KEY@ of the template by its value.
void fill(std::string& out, std::string_view tpl, const Fields& fields) {
    while (!tpl.empty()) {
        const std::size_t at = tpl.find('@');
        if (at == std::string_view::npos) {
            out += tpl;
            break;
        }
        out += tpl.substr(0, at);
        tpl.remove_prefix(at + 1);
        const std::size_t end = tpl.find('@');
        const std::string_view key = tpl.substr(0, end);
        bool found = false;
        for (const auto& [name, value] : fields) {
            if (name == key) {
                out += value;
                found = true;
                break;
            }
        }
        if (!found) {
            out += '@';
            continue;
        }
        tpl.remove_prefix(end + 1);
    }
}

std::string nodeName(int index) {
    char name[16];
    std::snprintf(name, sizeof name, "gpu-%05d", index + 1);
    return name;
}

// The occupancy of node i: most idle, a quarter mixed, some allocated, a few drained or down.
struct NodeLoad {
    const char* state;     // v0.0.38 base state
    const char* flags;     // v0.0.38 state_flags content
    const char* stateList; // v0.0.40 state list content
    int cpus = 0;
    int memory = 0;
    int gpus = 0;
    const char* reason = "";
};

NodeLoad nodeLoad(int i) {
    const int bucket = i % 100;
    if (bucket < 60) return {"idle", "", "\"IDLE\"", 0, 0, 0};
    if (bucket < 85) return {"mixed", "", "\"MIXED\"", 8 + bucket % 16, 32000, 1 + bucket % 7};
    if (bucket < 95) return {"allocated", "", "\"ALLOCATED\"", 64, 500000, 8};
    if (bucket < 97) return {"idle", "\n        \"DRAIN\"\n      ", "\"IDLE\",\n        \"DRAIN\"", 0, 0, 0, "xid-79"};
    if (bucket < 98)
        return {"mixed",           "\n        \"DRAIN\"\n      ", "\"MIXED\",\n        \"DRAIN\"", 16, 64000, 4,
                "ECC memory error"};
    return {"down", "", "\"DOWN\",\n        \"NOT_RESPONDING\"", 0, 0, 0, "Not responding"};
}

constexpr std::string_view kNodeV038 = R"json(    {
      "architecture": "x86_64",
      "burstbuffer_network_address": "",
      "boards": 1,
      "boot_time": 1796111927,
      "comment": "",
      "cores": 32,
      "cpu_binding": 0,
      "cpu_load": 114,
      "extra": "",
      "free_memory": 22241,
      "cpus": 64,
      "last_busy": 1796124579,
      "features": "@FEATURES@",
      "active_features": "@FEATURES@",
      "gres": "@GRES@",
      "gres_drained": "N\/A",
      "gres_used": "@GRES_USED@",
      "mcs_label": "",
      "name": "@NAME@",
      "next_state_after_reboot": "invalid",
      "address": "@NAME@",
      "hostname": "@NAME@",
      "state": "@STATE@",
      "state_flags": [@FLAGS@],
      "next_state_after_reboot_flags": [
      ],
      "operating_system": "Linux 6.1.0-26-amd64 #1 SMP PREEMPT_DYNAMIC Debian 6.1.112-1 (2024-09-30)",
      "owner": null,
      "partitions": [
        "gpu"
      ],
      "port": 6818,
      "real_memory": 512000,
      "reason": "@REASON@",
      "reason_changed_at": 1796124585,
      "reason_set_by_user": "root",
      "slurmd_start_time": 1796124579,
      "sockets": 2,
      "threads": 1,
      "temporary_disk": 0,
      "weight": 1,
      "tres": "cpu=64,mem=500G,billing=64,gres\/gpu=8",
      "slurmd_version": "22.05.8",
      "alloc_memory": @ALLOC_MEM@,
      "alloc_cpus": @ALLOC_CPUS@,
      "idle_cpus": @IDLE_CPUS@,
      "tres_used": "cpu=@ALLOC_CPUS@,mem=@ALLOC_MEM@M",
      "tres_weighted": @ALLOC_CPUS@.0
    })json";

constexpr std::string_view kNodeV040 = R"json(    {
      "architecture": "x86_64",
      "burstbuffer_network_address": "",
      "boards": 1,
      "boot_time": {
        "set": true,
        "infinite": false,
        "number": 1796111927
      },
      "cluster_name": "",
      "cores": 32,
      "specialized_cores": 0,
      "cpu_binding": 0,
      "cpu_load": 114,
      "free_mem": {
        "set": true,
        "infinite": false,
        "number": 22241
      },
      "cpus": 64,
      "effective_cpus": 64,
      "specialized_cpus": "",
      "energy": {
        "average_watts": 0,
        "base_consumed_energy": 0,
        "consumed_energy": 0,
        "current_watts": {
          "set": true,
          "infinite": false,
          "number": 0
        },
        "previous_consumed_energy": 0,
        "last_collected": 0
      },
      "external_sensors": {
        "consumed_energy": {
          "set": false,
          "infinite": false,
          "number": 0
        },
        "temperature": {
          "set": false,
          "infinite": false,
          "number": 0
        },
        "energy_update_time": 0,
        "current_watts": 0
      },
      "extra": "",
      "power": {
        "maximum_watts": {
          "set": false,
          "infinite": false,
          "number": 0
        },
        "current_watts": 0,
        "total_energy": 0,
        "new_maximum_watts": 0,
        "peak_watts": 0,
        "lowest_watts": 0,
        "new_job_time": {
          "set": true,
          "infinite": false,
          "number": 0
        },
        "state": 0,
        "time_start_day": 0
      },
      "features": [
        "h100",
        "nvlink"
      ],
      "active_features": [
        "h100",
        "nvlink"
      ],
      "gres": "@GRES@",
      "gres_drained": "N/A",
      "gres_used": "@GRES_USED@",
      "instance_id": "",
      "instance_type": "",
      "last_busy": {
        "set": true,
        "infinite": false,
        "number": 1796124579
      },
      "mcs_label": "",
      "specialized_memory": 0,
      "name": "@NAME@",
      "next_state_after_reboot": [
        "INVALID"
      ],
      "address": "@NAME@",
      "hostname": "@NAME@",
      "state": [
        @STATE_LIST@
      ],
      "operating_system": "Linux 6.1.0-26-amd64 #1 SMP PREEMPT_DYNAMIC Debian 6.1.112-1 (2024-09-30)",
      "owner": "",
      "partitions": [
        "gpu"
      ],
      "port": 6818,
      "real_memory": 512000,
      "comment": "",
      "reason": "@REASON@",
      "reason_changed_at": {
        "set": true,
        "infinite": false,
        "number": 1796124585
      },
      "reason_set_by_user": "root",
      "resume_after": {
        "set": true,
        "infinite": false,
        "number": 0
      },
      "reservation": "",
      "alloc_memory": @ALLOC_MEM@,
      "alloc_cpus": @ALLOC_CPUS@,
      "alloc_idle_cpus": @IDLE_CPUS@,
      "tres_used": "cpu=@ALLOC_CPUS@,mem=@ALLOC_MEM@M",
      "tres_weighted": @ALLOC_CPUS@.0,
      "slurmd_start_time": {
        "set": true,
        "infinite": false,
        "number": 1796124579
      },
      "sockets": 2,
      "threads": 1,
      "temporary_disk": 0,
      "weight": 1,
      "tres": "cpu=64,mem=500G,billing=64,gres/gpu=8",
      "version": "23.11.10"
    })json";

Fields nodeFields(int i, bool typed) {
    const NodeLoad load = nodeLoad(i);
    const std::string name = nodeName(i);
    // A third of the cluster has typed GRES; the rest plain gpu:8 as on the live cluster.
    const bool h100 = typed || i % 3 == 0;
    const std::string gres = h100 ? "gpu:h100:8(S:0-1)" : "gpu:8";
    std::string used = h100 ? "gpu:h100:" + std::to_string(load.gpus) : "gpu:" + std::to_string(load.gpus);
    if (h100) used += load.gpus ? "(IDX:0-" + std::to_string(load.gpus - 1) + ")" : "(IDX:N/A)";
    return {{"NAME", name},
            {"STATE", load.state},
            {"FLAGS", load.flags},
            {"STATE_LIST", load.stateList},
            {"GRES", gres},
            {"GRES_USED", used},
            {"REASON", load.reason},
            {"FEATURES", h100 ? "h100,nvlink" : ""},
            {"ALLOC_CPUS", std::to_string(load.cpus)},
            {"IDLE_CPUS", std::to_string(64 - load.cpus)},
            {"ALLOC_MEM", std::to_string(load.memory)}};
}

// The meta and errors of a 22.05 reply, up to the list.
constexpr std::string_view kMetaV038 = R"json({
  "meta": {
    "plugin": {
      "type": "openapi\/v0.0.38",
      "name": "Slurm OpenAPI v0.0.38"
    },
    "Slurm": {
      "version": {
        "major": 22,
        "micro": 8,
        "minor": 5
      },
      "release": "22.05.8"
    }
  },
  "errors": [
  ],
)json";

std::string sinfoV038() {
    std::string json = std::string(kMetaV038) + "  \"nodes\": [\n";
    for (int i = 0; i < kNodes; ++i) {
        fill(json, kNodeV038, nodeFields(i, false));
        json += i + 1 < kNodes ? ",\n" : "\n";
    }
    json += "  ]\n}\n";
    return json;
}

std::string nodesV040() {
    std::string json = "{\n  \"nodes\": [\n";
    for (int i = 0; i < kNodes; ++i) {
        fill(json, kNodeV040, nodeFields(i, true));
        json += i + 1 < kNodes ? ",\n" : "\n";
    }
    json += R"json(  ],
  "last_update": {
    "set": true,
    "infinite": false,
    "number": 1796124590
  },
  "meta": {
    "plugin": {
      "type": "openapi/slurmctld",
      "name": "Slurm OpenAPI slurmctld",
      "data_parser": "data_parser/v0.0.40",
      "accounting_storage": "accounting_storage/slurmdbd"
    },
    "client": {
      "source": "/run/slurmrestd/slurmrestd.socket->socket:[4242] (fd 9)",
      "user": "root",
      "group": "root"
    },
    "command": [],
    "slurm": {
      "version": {
        "major": "23",
        "micro": "10",
        "minor": "11"
      },
      "release": "23.11.10",
      "cluster": "topodeck"
    }
  },
  "errors": [],
  "warnings": []
}
)json";
    return json;
}

constexpr std::string_view kJobV038Head = R"json(    {
      "account": "research",
      "accrue_time": 1796124585,
      "admin_comment": "",
      "array_job_id": 0,
      "array_task_id": null,
      "array_max_tasks": 0,
      "array_task_string": "",
      "association_id": 0,
      "batch_features": "",
      "batch_flag": true,
      "batch_host": "@FIRST@",
      "flags": [
        "JOB_WAS_RUNNING"
      ],
      "burst_buffer": "",
      "burst_buffer_state": "",
      "cluster": "topodeck",
      "cluster_features": "",
      "command": "",
      "comment": "",
      "container": "",
      "contiguous": false,
      "core_spec": null,
      "thread_spec": null,
      "cores_per_socket": null,
      "billable_tres": @CPUS@.0,
      "cpus_per_task": null,
      "cpu_frequency_minimum": null,
      "cpu_frequency_maximum": null,
      "cpu_frequency_governor": null,
      "cpus_per_tres": "",
      "deadline": 0,
      "delay_boot": 0,
      "dependency": "",
      "derived_exit_code": 0,
      "eligible_time": 1796124585,
      "end_time": 1796128185,
      "excluded_nodes": "",
      "exit_code": 0,
      "features": "",
      "federation_origin": "",
      "federation_siblings_active": "",
      "federation_siblings_viable": "",
      "gres_detail": [
@GRES_DETAIL@
      ],
      "group_id": 0,
      "group_name": "research",
      "job_id": @ID@,
      "job_resources": {
        "nodes": "@HOSTLIST@",
        "allocated_cores": @CPUS@,
        "allocated_hosts": @HOSTS@,
        "allocated_nodes": [
@ALLOCATED@
        ]
      },
      "job_state": "RUNNING",
      "last_sched_evaluation": 1796124585,
      "licenses": "",
      "max_cpus": 0,
      "max_nodes": 0,
      "mcs_label": "",
      "memory_per_tres": "",
      "name": "train-@ID@",
      "nodes": "@HOSTLIST@",
      "nice": null,
      "tasks_per_core": null,
      "tasks_per_node": 0,
      "tasks_per_socket": null,
      "tasks_per_board": 0,
      "cpus": @CPUS@,
      "node_count": @HOSTS@,
      "tasks": @HOSTS@,
      "het_job_id": 0,
      "het_job_id_set": "",
      "het_job_offset": 0,
      "partition": "gpu",
      "prefer": "",
      "memory_per_node": null,
      "memory_per_cpu": 4000,
      "minimum_cpus_per_node": 1,
      "minimum_tmp_disk_per_node": 0,
      "preempt_time": 0,
      "pre_sus_time": 0,
      "priority": 4294901759,
      "profile": null,
      "qos": "normal",
      "reboot": false,
      "required_nodes": "",
      "requeue": true,
      "resize_time": 0,
      "restart_cnt": 0,
      "resv_name": "",
      "shared": null,
      "show_flags": [
        "SHOW_ALL",
        "SHOW_DETAIL",
        "SHOW_LOCAL"
      ],
      "sockets_per_board": 0,
      "sockets_per_node": null,
      "start_time": 1796124585,
      "state_description": "",
      "state_reason": "None",
      "standard_error": "",
      "standard_input": "\/dev\/null",
      "standard_output": "\/home\/user@ID@\/slurm-%j.out",
      "submit_time": 1796124585,
      "suspend_time": 0,
      "system_comment": "",
      "time_limit": 60,
      "time_minimum": 0,
      "threads_per_core": null,
      "tres_bind": "",
      "tres_freq": "",
      "tres_per_job": "",
      "tres_per_node": "gres:gpu:@GPUS@",
      "tres_per_socket": "",
      "tres_per_task": "",
      "tres_req_str": "cpu=@CPUS@,mem=@MEM_TOTAL@M,node=@HOSTS@,billing=@CPUS@",
      "tres_alloc_str": "cpu=@CPUS@,mem=@MEM_TOTAL@M,node=@HOSTS@,billing=@CPUS@",
      "user_id": @ID@,
      "user_name": "user@ID@",
      "wckey": "",
      "current_working_directory": "\/home\/user@ID@"
    })json";

std::string squeueV038() {
    std::string json = std::string(kMetaV038) + "  \"jobs\": [\n";
    for (int j = 0; j < kJobs; ++j) {
        const int first = j * kNodesPerJob;
        const int cores = 1 + j % 8;   // per node
        const int gpus = 1 << (j % 4); // 1, 2, 4, 8 per node
        const int memory = cores * 4000;
        std::string gresDetail;
        std::string allocated;
        for (int n = 0; n < kNodesPerJob; ++n) {
            gresDetail += "        \"gpu:" + std::to_string(gpus) + "(IDX:0-" + std::to_string(gpus - 1) + ")\"";
            gresDetail += n + 1 < kNodesPerJob ? ",\n" : "";
            std::string coreList;
            for (int c = 0; c < cores; ++c)
                coreList +=
                    "                  \"" + std::to_string(c) + "\": \"allocated\"" + (c + 1 < cores ? ",\n" : "");
            allocated +=
                "          {\n            \"sockets\": {\n              \"0\": {\n                \"cores\": {\n" +
                coreList + "\n                }\n              }\n            },\n            \"nodename\": \"" +
                nodeName(first + n) +
                "\",\n            \"cpus_used\": 0,\n            \"memory_used\": 0,\n            "
                "\"memory_allocated\": " +
                std::to_string(memory) + "\n          }" + (n + 1 < kNodesPerJob ? ",\n" : "");
        }
        char hostlist[48];
        std::snprintf(hostlist, sizeof hostlist, "gpu-[%05d-%05d]", first + 1, first + kNodesPerJob);
        fill(json, kJobV038Head,
             {{"ID", std::to_string(j + 1)},
              {"FIRST", nodeName(first)},
              {"HOSTLIST", hostlist},
              {"HOSTS", std::to_string(kNodesPerJob)},
              {"CPUS", std::to_string(cores * kNodesPerJob)},
              {"GPUS", std::to_string(gpus)},
              {"MEM_TOTAL", std::to_string(memory * kNodesPerJob)},
              {"GRES_DETAIL", gresDetail},
              {"ALLOCATED", allocated}});
        json += j + 1 < kJobs ? ",\n" : "\n";
    }
    json += "  ]\n}\n";
    return json;
}

// topology.conf: leaves of 18 nodes, spines of 16 leaves, one core switch.
std::string topologyConf() {
    constexpr int leafSize = 18;
    constexpr int spineSize = 16;
    const int leaves = (kNodes + leafSize - 1) / leafSize;
    const int spines = (leaves + spineSize - 1) / spineSize;
    std::string text = "# 20,000 nodes: " + std::to_string(leaves) + " leaves, " + std::to_string(spines) + " spines\n";
    char line[128];
    for (int l = 0; l < leaves; ++l) {
        const int first = l * leafSize + 1;
        const int last = std::min(kNodes, first + leafSize - 1);
        std::snprintf(line, sizeof line, "SwitchName=leaf%04d Nodes=gpu-[%05d-%05d]\n", l + 1, first, last);
        text += line;
    }
    for (int s = 0; s < spines; ++s) {
        const int first = s * spineSize + 1;
        const int last = std::min(leaves, first + spineSize - 1);
        std::snprintf(line, sizeof line, "SwitchName=spine%03d Switches=leaf[%04d-%04d]\n", s + 1, first, last);
        text += line;
    }
    std::snprintf(line, sizeof line, "SwitchName=core Switches=spine[001-%03d]\n", spines);
    text += line;
    return text;
}

void report(benchmark::State& bench, std::size_t bytes) {
    bench.SetBytesProcessed(static_cast<std::int64_t>(bench.iterations()) * static_cast<std::int64_t>(bytes));
    bench.counters["reply_MB"] = static_cast<double>(bytes) / 1e6;
}

void BM_ReadSinfoJson20k(benchmark::State& bench) {
    static std::string json = sinfoV038();
    std::size_t nodes = 0;
    std::int64_t gpusUsed = 0;
    for (auto _ : bench) {
        auto reply = readSlurmNodes(json, "sinfo --json");
        if (!reply) {
            bench.SkipWithError(reply.error().message.c_str());
            return;
        }
        nodes = reply->nodes.size();
        gpusUsed = reply->nodes.back().gpusUsed;
        benchmark::DoNotOptimize(reply->nodes.data());
    }
    if (nodes != kNodes) bench.SkipWithError("wrong node count");
    benchmark::DoNotOptimize(gpusUsed);
    report(bench, json.size());
    bench.counters["nodes"] = static_cast<double>(nodes);
}
BENCHMARK(BM_ReadSinfoJson20k)->Unit(benchmark::kMillisecond);

void BM_ReadNodesV040_20k(benchmark::State& bench) {
    static std::string json = nodesV040();
    std::size_t nodes = 0;
    for (auto _ : bench) {
        auto reply = readSlurmNodes(json, "slurmrestd /slurm/v0.0.40/nodes");
        if (!reply) {
            bench.SkipWithError(reply.error().message.c_str());
            return;
        }
        nodes = reply->nodes.size();
        benchmark::DoNotOptimize(reply->nodes.data());
    }
    if (nodes != kNodes) bench.SkipWithError("wrong node count");
    report(bench, json.size());
    bench.counters["nodes"] = static_cast<double>(nodes);
}
BENCHMARK(BM_ReadNodesV040_20k)->Unit(benchmark::kMillisecond);

void BM_ReadSqueueJson5k(benchmark::State& bench) {
    static std::string json = squeueV038();
    std::size_t jobs = 0;
    std::size_t allocations = 0;
    for (auto _ : bench) {
        auto reply = readSlurmJobs(json, "squeue --json");
        if (!reply) {
            bench.SkipWithError(reply.error().message.c_str());
            return;
        }
        jobs = reply->jobs.size();
        allocations = 0;
        for (const SlurmJob& job : reply->jobs) allocations += job.allocations.size();
        benchmark::DoNotOptimize(reply->jobs.data());
    }
    if (jobs != kJobs || allocations != kNodes) bench.SkipWithError("wrong job or allocation count");
    report(bench, json.size());
    bench.counters["jobs"] = static_cast<double>(jobs);
    bench.counters["allocations"] = static_cast<double>(allocations);
}
BENCHMARK(BM_ReadSqueueJson5k)->Unit(benchmark::kMillisecond);

void BM_ParseTopologyConf20k(benchmark::State& bench) {
    static const std::string text = topologyConf();
    std::size_t switches = 0;
    for (auto _ : bench) {
        auto topology = parseTopologyConf(text);
        if (!topology) {
            bench.SkipWithError(topology.error().message.c_str());
            return;
        }
        switches = topology->switches.size();
        benchmark::DoNotOptimize(topology->switches.data());
    }
    report(bench, text.size());
    bench.counters["switches"] = static_cast<double>(switches);
}
BENCHMARK(BM_ParseTopologyConf20k)->Unit(benchmark::kMillisecond);

// The copy of `text` with the first `count` occurrences of `from` replaced by `to`.
std::string replaced(std::string text, std::string_view from, std::string_view to, int count) {
    std::size_t at = 0;
    for (int i = 0; i < count && (at = text.find(from, at)) != std::string::npos; ++i) {
        text.replace(at, from.size(), to);
        at += to.size();
    }
    return text;
}

// One poll of a 20,000-node cluster through the Slurm source's own steps, where both replies
// changed (so nothing is skipped by update_time / 304): read sinfo --json and squeue --json, map
// them onto the model, diff against the last poll, apply the few events to the state and the
// topology index. Polls alternate between two replies that differ in 200 node states and 50
// ended jobs, as a busy cluster does every few seconds. CPU time is the process's, so the
// figure is what the poll thread costs per cycle (the Slurm commands' own work is not included).
void BM_PollCycle20k(benchmark::State& bench) {
    static std::string nodes[2] = {sinfoV038(), replaced(sinfoV038(), "\"state\": \"idle\"", "\"state\": \"mixed\"", 200)};
    static std::string jobs[2] = {squeueV038(),
                                  replaced(squeueV038(), "\"job_state\": \"RUNNING\"", "\"job_state\": \"COMPLETED\"", 50)};
    auto topologyText = topologyConf();
    auto topology = parseTopologyConf(topologyText);
    if (!topology) return bench.SkipWithError(topology.error().message.c_str());
    SlurmClusterMapper mapper;
    mapper.setTopology(std::make_shared<const SlurmTopology>(std::move(*topology)));
    ClusterState state;
    for (ClusterEvent& event : [&] {
             auto n = readSlurmNodes(nodes[0], "sinfo");
             auto j = readSlurmJobs(jobs[0], "squeue");
             mapper.setNodes(std::move(n->nodes));
             mapper.setJobs(std::move(j->jobs));
             return mapper.takeEvents();
         }())
        (void)state.apply(std::move(event));
    TopologySpec spec = state.topologies().begin()->second;
    TopologyIndex index = TopologyIndex::build(state, std::move(spec));
    int which = 0;
    std::size_t events = 0;
    for (auto _ : bench) {
        which = 1 - which;
        auto nodeReply = readSlurmNodes(nodes[which], "sinfo --json");
        auto jobReply = readSlurmJobs(jobs[which], "squeue --json");
        if (!nodeReply || !jobReply) return bench.SkipWithError("unreadable reply");
        mapper.setNodes(std::move(nodeReply->nodes));
        mapper.setJobs(std::move(jobReply->jobs));
        std::vector<ClusterEvent> changes = mapper.takeEvents();
        events = changes.size();
        for (ClusterEvent& event : changes) index.apply(state, state.apply(std::move(event)));
    }
    bench.counters["events_per_poll"] = static_cast<double>(events);
    bench.counters["nodes"] = static_cast<double>(state.presentNodeCount());
    bench.counters["job_allocations"] = static_cast<double>(state.podCount());
    bench.counters["reply_MB"] = static_cast<double>(nodes[0].size() + jobs[0].size()) / 1e6;
}
BENCHMARK(BM_PollCycle20k)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime();

} // namespace

BENCHMARK_MAIN();
