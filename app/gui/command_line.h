#pragma once

#include "core/live/live_target.h"

#include <QSize>
#include <QString>
#include <QStringList>

#include <chrono>
#include <optional>

namespace topodeck {

// What the topodeck GUI was asked to do at start.
struct LaunchOptions {
    QString demo = QStringLiteral("gb200"); // used when no file or live cluster is given
    QString file;
    // Live Kubernetes clusters, one window each: kubeconfig contexts (an empty name: the current
    // one), or the pod's service account.
    QStringList contexts;
    QString kubeconfig;
    bool inCluster = false;
    // A live Slurm cluster (--slurm and the --slurm-* flags that refine it), and how often to poll it.
    std::optional<SlurmTarget> slurm;
    std::chrono::milliseconds slurmPoll{5000};
    QString slurmTopologyFile; // --slurm-topology beside -f: a topology.conf / topology.yaml for the node list
    QString topology;     // a topology object's name from the file
    QStringList levels;   // node-label keys, top level first
    QString gpuResources; // resource names counted as GPUs, comma separated; empty = nvidia.com/gpu
    QString gpuClasses;   // DRA DeviceClasses counted as GPUs, comma separated; empty = gpu.nvidia.com
    bool simulate = false;
    QString screenshot; // write the window to this image and exit
    QString select;     // a domain or node path to select once data is there
    QString filter;     // a label selector for the filter bar
    QString plan;       // topodeckctl plan's flags: the planner runs them once data is there
    QString page;       // "planner", "gangs", "charts" or "what-if": that page is raised
    QString zoom;       // a domain path the map zooms to once data is there
    bool freeCapacity = false; // the map colours by free capacity for the planner's pod shape
    QString whatIf;     // what-if steps ("--fail su-1/rack-1-02 --drain NODE --place \"FLAGS\""), applied once shown

    bool live() const { return !contexts.isEmpty() || inCluster || slurm.has_value(); }
};

// The GUI's command line (QCommandLineParser), parsed without exiting so that it can be tested.
class CommandLine {
public:
    enum class Outcome { Run, Help, Version, Error };

    static constexpr QSize kScreenshotSize{1600, 1000};

    Outcome parse(const QStringList& arguments);
    const LaunchOptions& options() const { return m_options; }
    // The help or version text, or the error (without the program name).
    const QString& message() const { return m_message; }

private:
    LaunchOptions m_options;
    QString m_message;
};

} // namespace topodeck
