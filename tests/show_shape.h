#pragma once
// The shape of a hierarchy as `topodeckctl show -o json` prints it, for tests that compare
// hierarchies read from different sources (labels, HyperNodes, Slurm topologies).

#include <QtCore/QByteArray>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QList>

#include <algorithm>

namespace showshape {

// The node counts of every domain of `show -o json` that holds more than one node and fewer than
// all: the shape of a hierarchy, whatever its source calls its levels, without a per-node level
// (a demo's kubernetes.io/hostname) or a single root (Slurm's top switch).
inline void collectSizes(const QJsonArray& domains, int allNodes, QList<int>& sizes) {
    for (const QJsonValue domain : domains) {
        const int nodes = domain[QLatin1String("nodes_total")].toInt();
        if (nodes > 1 && nodes < allNodes) sizes << nodes;
        collectSizes(domain[QLatin1String("children")].toArray(), allNodes, sizes);
    }
}
inline QList<int> domainSizes(const QByteArray& showJson) {
    const QJsonObject show = QJsonDocument::fromJson(showJson).object();
    QList<int> sizes;
    collectSizes(show[QLatin1String("children")].toArray(), show[QLatin1String("nodes_total")].toInt(), sizes);
    std::sort(sizes.begin(), sizes.end());
    return sizes;
}

} // namespace showshape
