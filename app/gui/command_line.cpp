#include "app/gui/command_line.h"

#include "core/placement/reports/plan_query.h"
#include "views/pages/what_if_panel.h"

#include <QCommandLineParser>
#include <QCoreApplication>

#include <cmath>

namespace topodeck {

namespace {

// The flags of a live Slurm cluster, named and worded as topodeckctl's.
struct SlurmFlags {
    QCommandLineOption slurm{
        QStringLiteral("slurm"),
        QCoreApplication::translate("CommandLine",
                                    "Connect to a live Slurm cluster: slurmrestd (http://host:6820, https://..., "
                                    "unix:/path.sock) or this machine's Slurm commands (cli)."),
        QStringLiteral("URL|cli")};
    QCommandLineOption tokenFile{
        QStringLiteral("slurm-token-file"),
        QCoreApplication::translate("CommandLine",
                                    "slurmrestd: the JWT (scontrol token) in this file (default $SLURM_JWT)."),
        QStringLiteral("file")};
    QCommandLineOption user{
        QStringLiteral("slurm-user"),
        QCoreApplication::translate("CommandLine", "slurmrestd: X-SLURM-USER-NAME (default: the token's user)."),
        QStringLiteral("name")};
    QCommandLineOption api{
        QStringLiteral("slurm-api"),
        QCoreApplication::translate("CommandLine",
                                    "slurmrestd: the REST API version, e.g. v0.0.38 (default: the newest offered)."),
        QStringLiteral("version")};
    QCommandLineOption conf{QStringLiteral("slurm-conf"),
                            QCoreApplication::translate("CommandLine", "Slurm CLI: SLURM_CONF for the commands."),
                            QStringLiteral("file")};
    QCommandLineOption topology{
        QStringLiteral("slurm-topology"),
        QCoreApplication::translate("CommandLine",
                                    "topology.conf or topology.yaml (slurmrestd does not serve the topology; the "
                                    "CLI asks scontrol show topology without it)."),
        QStringLiteral("file")};
    QCommandLineOption poll{QStringLiteral("poll"),
                            QCoreApplication::translate("CommandLine", "Slurm: how often to poll (default 5)."),
                            QStringLiteral("seconds")};

    QList<QCommandLineOption> all() const { return {slurm, tokenFile, user, api, conf, topology, poll}; }
    // Sets options.slurm and options.slurmPoll from the flags; the error, or an empty string.
    QString read(const QCommandLineParser& parser, LaunchOptions& options) const;
};

QString SlurmFlags::read(const QCommandLineParser& parser, LaunchOptions& options) const {
    if (!parser.isSet(slurm)) {
        // Beside a snapshot file, a topology file is the hierarchy the node list lacks.
        if (parser.isSet(topology)) {
            if (parser.value(topology).trimmed().isEmpty())
                return QCoreApplication::translate("CommandLine", "--slurm-topology needs a file");
            options.slurmTopologyFile = parser.value(topology);
        }
        for (const QCommandLineOption* flag : {&tokenFile, &user, &api, &conf, &poll})
            if (parser.isSet(*flag))
                return QCoreApplication::translate("CommandLine", "--%1 only applies to --slurm")
                    .arg(flag->names().constFirst());
        return QString();
    }
    if (parser.values(slurm).size() > 1) return QCoreApplication::translate("CommandLine", "--slurm takes one cluster");
    Result<SlurmTarget> target = SlurmTarget::fromArgument(parser.value(slurm).trimmed().toStdString());
    if (!target) return QString::fromStdString(target.error().message);

    enum class AppliesTo { Rest, Cli, Both };
    struct Refinement {
        const QCommandLineOption* flag;
        std::string* field;
        AppliesTo appliesTo;
    };
    const bool rest = target->kind == SlurmTarget::Kind::Rest;
    for (const Refinement& refinement :
         {Refinement{&tokenFile, &target->tokenFile, AppliesTo::Rest},
          Refinement{&user, &target->userName, AppliesTo::Rest}, Refinement{&api, &target->apiVersion, AppliesTo::Rest},
          Refinement{&conf, &target->slurmConf, AppliesTo::Cli},
          Refinement{&topology, &target->topologyFile, AppliesTo::Both}}) {
        if (!parser.isSet(*refinement.flag)) continue;
        const QString name = refinement.flag->names().constFirst();
        const QString value = parser.value(*refinement.flag);
        if (value.trimmed().isEmpty())
            return QCoreApplication::translate("CommandLine", "--%1 needs a value").arg(name);
        if (refinement.appliesTo == AppliesTo::Rest && !rest)
            return QCoreApplication::translate("CommandLine", "--%1 applies to slurmrestd (--slurm URL), not the CLI")
                .arg(name);
        if (refinement.appliesTo == AppliesTo::Cli && rest)
            return QCoreApplication::translate("CommandLine", "--%1 applies to the Slurm CLI (--slurm cli)").arg(name);
        *refinement.field = value.toStdString();
    }

    if (parser.isSet(poll)) {
        QString text = parser.value(poll).trimmed();
        // A trailing "s" is accepted, as people write durations that way ("--poll 2s").
        if (text.endsWith(QLatin1Char('s'))) text.chop(1);
        bool ok = false;
        const double seconds = text.toDouble(&ok);
        if (!ok || !std::isfinite(seconds) || seconds < 0 || seconds > 86400)
            return QCoreApplication::translate("CommandLine",
                                               "--poll wants seconds between 0 and 86400, e.g. 1 or 0.5, not \"%1\"")
                .arg(parser.value(poll));
        if (seconds < 0.1) return QCoreApplication::translate("CommandLine", "--poll: at least 0.1 s");
        options.slurmPoll = std::chrono::milliseconds(std::llround(seconds * 1000));
    }
    options.slurm = std::move(*target);
    return QString();
}

// Where the cluster comes from: an embedded demo, a snapshot file (-f or a bare name) or a live
// Kubernetes cluster; Slurm's flags are SlurmFlags'.
struct SourceFlags {
    QCommandLineOption demo{
        QStringLiteral("demo"),
        QCoreApplication::translate("CommandLine",
                                    "Open an embedded demo cluster: gb200, h100 or scale:N (default gb200)."),
        QStringLiteral("name")};
    QCommandLineOption file{
        {QStringLiteral("f"), QStringLiteral("file")},
        QCoreApplication::translate("CommandLine", "Open a snapshot file (kubectl get nodes,pods -A -o yaml|json)."),
        QStringLiteral("file")};
    QCommandLineOption context{QStringLiteral("context"),
                               QCoreApplication::translate("CommandLine",
                                                           "Connect to this kubeconfig context (repeat for several "
                                                           "clusters, one window each)."),
                               QStringLiteral("name")};
    QCommandLineOption kubeconfig{
        QStringLiteral("kubeconfig"),
        QCoreApplication::translate("CommandLine",
                                    "Read only this kubeconfig (default: KUBECONFIG, else ~/.kube/config); with no "
                                    "--context, its current context."),
        QStringLiteral("file")};
    QCommandLineOption inCluster{
        QStringLiteral("in-cluster"),
        QCoreApplication::translate("CommandLine", "Connect with this pod's service account.")};

    QList<QCommandLineOption> all() const { return {demo, file, context, kubeconfig, inCluster}; }
    bool fileGiven(const QCommandLineParser& parser) const {
        return parser.isSet(file) || !parser.positionalArguments().isEmpty();
    }
    bool liveGiven(const QCommandLineParser& parser) const {
        return parser.isSet(context) || parser.isSet(kubeconfig) || parser.isSet(inCluster);
    }
    // One source at most, and one file; the error, or an empty string.
    QString checkOne(const QCommandLineParser& parser, bool slurmGiven) const;
    // Sets the demo, the file or the live Kubernetes cluster; the error, or an empty string.
    QString read(const QCommandLineParser& parser, LaunchOptions& options) const;
};

QString SourceFlags::checkOne(const QCommandLineParser& parser, bool slurmGiven) const {
    // A bare file name opens that file, as desktop launchers pass it.
    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1 || (positional.size() == 1 && parser.isSet(file)))
        return QCoreApplication::translate("CommandLine", "unexpected argument '%1'").arg(positional.constLast());
    if (int(parser.isSet(demo)) + int(fileGiven(parser)) + int(liveGiven(parser)) + int(slurmGiven) > 1)
        return QCoreApplication::translate("CommandLine",
                                           "give one of --demo, --file or a live cluster (--context, --kubeconfig, "
                                           "--in-cluster, --slurm)");
    if (parser.isSet(inCluster) && (parser.isSet(context) || parser.isSet(kubeconfig)))
        return QCoreApplication::translate("CommandLine", "--in-cluster takes no --context or --kubeconfig");
    return QString();
}

QString SourceFlags::read(const QCommandLineParser& parser, LaunchOptions& options) const {
    if (parser.isSet(demo)) options.demo = parser.value(demo).trimmed();
    if (fileGiven(parser)) {
        options.file = parser.isSet(file) ? parser.value(file) : parser.positionalArguments().constFirst();
        options.demo.clear();
    }
    if (!liveGiven(parser)) return QString();
    options.demo.clear();
    options.inCluster = parser.isSet(inCluster);
    options.kubeconfig = parser.value(kubeconfig);
    for (const QString& name : parser.values(context)) {
        if (name.trimmed().isEmpty()) return QCoreApplication::translate("CommandLine", "--context needs a name");
        options.contexts << name.trimmed();
    }
    if (parser.isSet(kubeconfig) && options.kubeconfig.isEmpty())
        return QCoreApplication::translate("CommandLine", "--kubeconfig needs a file");
    if (options.contexts.isEmpty() && !options.inCluster) options.contexts << QString(); // the current one
    return QString();
}

// How the nodes are grouped and what counts as a GPU.
struct HierarchyFlags {
    QCommandLineOption levels{QStringLiteral("levels"),
                              QCoreApplication::translate(
                                  "CommandLine", "Node-label keys of the hierarchy, top level first, comma separated."),
                              QStringLiteral("k1,k2")};
    QCommandLineOption topology{
        QStringLiteral("topology"),
        QCoreApplication::translate("CommandLine", "Use the Kueue or KAI Topology object with this name."),
        QStringLiteral("name")};
    QCommandLineOption gpuResources{
        QStringLiteral("gpu-resources"),
        QCoreApplication::translate("CommandLine",
                                    "Resource names counted as GPUs, comma separated; a trailing * matches a prefix "
                                    "(default nvidia.com/gpu)."),
        QStringLiteral("names")};
    QCommandLineOption gpuClasses{
        QStringLiteral("gpu-classes"),
        QCoreApplication::translate("CommandLine",
                                    "DRA DeviceClasses whose devices count as GPUs, comma separated (default "
                                    "gpu.nvidia.com; add mig.nvidia.com to count MIG devices a claim can take)."),
        QStringLiteral("names")};

    QList<QCommandLineOption> all() const { return {levels, topology, gpuResources, gpuClasses}; }
    QString checkOne(const QCommandLineParser& parser) const {
        if (parser.isSet(levels) && parser.isSet(topology))
            return QCoreApplication::translate("CommandLine", "give either --levels or --topology, not both");
        return QString();
    }
    // Sets the levels, the topology and the GPU resources; the error, or an empty string.
    QString read(const QCommandLineParser& parser, LaunchOptions& options) const;
};

QString HierarchyFlags::read(const QCommandLineParser& parser, LaunchOptions& options) const {
    if (parser.isSet(levels)) {
        for (const QString& key : parser.value(levels).split(QLatin1Char(','))) {
            if (key.trimmed().isEmpty())
                return QCoreApplication::translate("CommandLine", "--levels has an empty label key in '%1'")
                    .arg(parser.value(levels));
            options.levels.append(key.trimmed());
        }
    }
    options.topology = parser.value(topology).trimmed();
    options.gpuResources = parser.value(gpuResources).trimmed();
    if (parser.isSet(gpuClasses)) {
        options.gpuClasses = parser.value(gpuClasses).trimmed();
        if (options.gpuClasses.split(QLatin1Char(','), Qt::SkipEmptyParts).isEmpty())
            return QCoreApplication::translate("CommandLine", "--gpu-classes needs at least one DeviceClass name");
    }
    return QString();
}

// What the window does once it shows the cluster: simulate, select, filter, plan, raise a page,
// zoom, colour, apply what-if steps, or write a screenshot and exit.
struct StartFlags {
    QCommandLineOption simulate{
        QStringLiteral("simulate"),
        QCoreApplication::translate("CommandLine", "Run the demo simulator: gangs start and finish while you watch.")};
    QCommandLineOption screenshot{
        QStringLiteral("screenshot"),
        QCoreApplication::translate("CommandLine",
                                    "Render the window offscreen at 1600x1000 once the data is shown, write it to "
                                    "this PNG file and exit."),
        QStringLiteral("file.png")};
    QCommandLineOption select{
        QStringLiteral("select"),
        QCoreApplication::translate("CommandLine", "Select the domain or node at this path, e.g. su-1/rack-3."),
        QStringLiteral("path")};
    QCommandLineOption filter{
        QStringLiteral("filter"),
        QCoreApplication::translate("CommandLine",
                                    "Filter the tree and dim the map by this Kubernetes label selector, e.g. "
                                    "\"rack in (rack-1-01,rack-1-02),!node.kubernetes.io/unschedulable\"."),
        QStringLiteral("selector")};
    QCommandLineOption plan{
        QStringLiteral("plan"),
        QCoreApplication::translate("CommandLine",
                                    "Open the planner with topodeckctl plan's flags in one string, e.g. \"--pods 16 "
                                    "--request nvidia.com/gpu=4 --required rack --compare\", run it and show the "
                                    "placement on the map."),
        QStringLiteral("flags")};
    QCommandLineOption page{
        QStringLiteral("page"),
        QCoreApplication::translate("CommandLine", "Raise this page: planner, gangs, charts, what-if or changes."),
        QStringLiteral("page")};
    QCommandLineOption zoom{
        QStringLiteral("zoom"),
        QCoreApplication::translate("CommandLine", "Zoom the map to the domain at this path, e.g. su-1/rack-3."),
        QStringLiteral("path")};
    QCommandLineOption mapColours{
        QStringLiteral("map-colours"),
        QCoreApplication::translate("CommandLine",
                                    "Colour the map by occupancy (the default) or by free-capacity: how many pods "
                                    "of the planner's shape each domain could take now."),
        QStringLiteral("occupancy|free-capacity")};
    QCommandLineOption whatIf{
        QStringLiteral("what-if"),
        QCoreApplication::translate(
            "CommandLine", "Apply these what-if steps once data is shown, in order, e.g. \"--fail su-1/rack-1-02 "
                           "--drain gb200-su1-r03-n01 --place '--pods 8 -r nvidia.com/gpu=4'\"."),
        QStringLiteral("steps")};

    QList<QCommandLineOption> all() const {
        return {simulate, screenshot, select, filter, plan, page, zoom, mapColours, whatIf};
    }
    // Sets what the window does at start; the error, or an empty string.
    QString read(const QCommandLineParser& parser, LaunchOptions& options) const;

private:
    QString readPage(const QCommandLineParser& parser, LaunchOptions& options) const;
    QString readMapColours(const QCommandLineParser& parser, LaunchOptions& options) const;
    // --what-if and --plan, parsed as the what-if page and the planner will, so that a mistake is
    // reported before any window opens.
    QString readSteps(const QCommandLineParser& parser, LaunchOptions& options) const;
};

QString StartFlags::read(const QCommandLineParser& parser, LaunchOptions& options) const {
    options.simulate = parser.isSet(simulate);
    options.screenshot = parser.value(screenshot);
    if (parser.isSet(screenshot) && options.screenshot.isEmpty())
        return QCoreApplication::translate("CommandLine", "--screenshot needs a file name");
    options.select = parser.value(select).trimmed();
    options.filter = parser.value(filter);
    options.plan = parser.value(plan).trimmed();
    if (QString error = readPage(parser, options); !error.isEmpty()) return error;
    options.zoom = parser.value(zoom).trimmed();
    if (QString error = readMapColours(parser, options); !error.isEmpty()) return error;
    return readSteps(parser, options);
}

QString StartFlags::readPage(const QCommandLineParser& parser, LaunchOptions& options) const {
    options.page = parser.value(page).trimmed();
    const QStringList pages{QStringLiteral("planner"), QStringLiteral("gangs"), QStringLiteral("charts"),
                            QStringLiteral("what-if"), QStringLiteral("changes")};
    if (options.page.isEmpty() || pages.contains(options.page)) return QString();
    return QCoreApplication::translate("CommandLine",
                                       "--page wants planner, gangs, charts, what-if or changes, not \"%1\"")
        .arg(options.page);
}

QString StartFlags::readMapColours(const QCommandLineParser& parser, LaunchOptions& options) const {
    const QString colours = parser.value(mapColours).trimmed();
    if (colours.isEmpty()) return QString();
    if (colours != QLatin1String("occupancy") && colours != QLatin1String("free-capacity"))
        return QCoreApplication::translate("CommandLine", "--map-colours wants occupancy or free-capacity, not \"%1\"")
            .arg(colours);
    options.freeCapacity = colours == QLatin1String("free-capacity");
    return QString();
}

QString StartFlags::readSteps(const QCommandLineParser& parser, LaunchOptions& options) const {
    options.whatIf = parser.value(whatIf).trimmed();
    if (!options.whatIf.isEmpty()) {
        if (auto steps = parseWhatIfSteps(options.whatIf); !steps)
            return QCoreApplication::translate("CommandLine", "--what-if: %1")
                .arg(QString::fromStdString(steps.error().message));
    }
    if (!options.plan.isEmpty()) {
        if (auto query = parsePlanQuery(options.plan.toStdString()); !query)
            return QCoreApplication::translate("CommandLine", "--plan: %1")
                .arg(QString::fromStdString(query.error().message));
        if (options.page.isEmpty()) options.page = QStringLiteral("planner");
    }
    return QString();
}

// Every flag of the GUI, in the order --help lists them.
struct GuiFlags {
    SourceFlags source;
    SlurmFlags slurm;
    HierarchyFlags hierarchy;
    StartFlags start;

    void addTo(QCommandLineParser& parser) const {
        parser.addOptions(source.all());
        parser.addOptions(slurm.all());
        parser.addOptions(hierarchy.all() + start.all());
    }
    // Checks and reads the flags in the order their errors are reported: which flags go together
    // first, then each flag's value. The first error, or an empty string.
    QString read(const QCommandLineParser& parser, LaunchOptions& options) const;
};

QString GuiFlags::read(const QCommandLineParser& parser, LaunchOptions& options) const {
    const bool slurmGiven = parser.isSet(slurm.slurm);
    if (QString error = source.checkOne(parser, slurmGiven); !error.isEmpty()) return error;
    if (QString error = hierarchy.checkOne(parser); !error.isEmpty()) return error;
    options = LaunchOptions();
    if (QString error = source.read(parser, options); !error.isEmpty()) return error;
    if (QString error = slurm.read(parser, options); !error.isEmpty()) return error;
    if (slurmGiven) options.demo.clear();
    if (!options.slurmTopologyFile.isEmpty() && options.file.isEmpty())
        return QCoreApplication::translate("CommandLine",
                                           "--slurm-topology applies to --slurm or to a snapshot file (--file)");
    if (options.demo.isEmpty() && options.file.isEmpty() && !options.live())
        return QCoreApplication::translate("CommandLine", "--demo needs a name (gb200, h100 or scale:N)");
    if (QString error = hierarchy.read(parser, options); !error.isEmpty()) return error;
    return start.read(parser, options);
}

} // namespace

CommandLine::Outcome CommandLine::parse(const QStringList& arguments) {
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QCoreApplication::translate("CommandLine", "Topology console for GPU clusters: see how the hierarchy of "
                                                   "your cluster is occupied, down to each GPU."));
    const QCommandLineOption helpOption = parser.addHelpOption();
    const QCommandLineOption versionOption = parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("file"),
                                 QCoreApplication::translate("CommandLine", "A snapshot file to open (same as -f)."),
                                 QStringLiteral("[file]"));
    const GuiFlags flags;
    flags.addTo(parser);

    if (!parser.parse(arguments)) {
        m_message = parser.errorText();
        return Outcome::Error;
    }
    if (parser.isSet(helpOption)) {
        m_message = parser.helpText();
        return Outcome::Help;
    }
    if (parser.isSet(versionOption)) {
        m_message = QCoreApplication::applicationName() % QLatin1Char(' ') % QCoreApplication::applicationVersion();
        return Outcome::Version;
    }
    m_message = flags.read(parser, m_options);
    return m_message.isEmpty() ? Outcome::Run : Outcome::Error;
}

} // namespace topodeck
