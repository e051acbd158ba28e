<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name>ComputeDomainMarks</name>
    <message numerus="yes">
        <source>%n CDs</source>
        <translation>
            <numerusform>%n CD</numerusform>
            <numerusform>%n CDs</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ComputeDomainTerms</name>
    <message numerus="yes">
        <source>%n pod(s)</source>
        <translation>
            <numerusform>%n pod</numerusform>
            <numerusform>%n pods</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Spans %n NVLink clique(s): IMEX shares GPU memory only inside each</source>
        <translation>
            <numerusform>Spans %n NVLink clique: IMEX shares GPU memory only inside it</numerusform>
            <numerusform>Spans %n NVLink cliques: IMEX shares GPU memory only inside each</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of its %n pod(s) outside its ComputeDomain&apos;s NVLink cliques: no GPU memory shared with the rest over IMEX</source>
        <translation>
            <numerusform>%1 of its %n pod outside its ComputeDomain&apos;s NVLink cliques: no GPU memory shared with the rest over IMEX</numerusform>
            <numerusform>%1 of its %n pods outside its ComputeDomain&apos;s NVLink cliques: no GPU memory shared with the rest over IMEX</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>clique %1: %n node(s)</source>
        <translation>
            <numerusform>clique %1: %n node</numerusform>
            <numerusform>clique %1: %n nodes</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n node(s) in no NVLink clique (no IMEX daemon)</source>
        <translation>
            <numerusform>%n node in no NVLink clique (no IMEX daemon)</numerusform>
            <numerusform>%n nodes in no NVLink clique (no IMEX daemon)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>PaletteEntries</name>
    <message numerus="yes">
        <source>%1 (%n pod(s))</source>
        <translation>
            <numerusform>%1 (%n pod)</numerusform>
            <numerusform>%1 (%n pods)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>topodeck::ChangesPage</name>
    <message numerus="yes">
        <source> and %n more</source>
        <translation>
            <numerusform> and %n more</numerusform>
            <numerusform> and %n more</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n label change(s) with the values they expect (from a file or a journal)</source>
        <translation>
            <numerusform>%n label change with the values they expect (from a file or a journal)</numerusform>
            <numerusform>%n label changes with the values they expect (from a file or a journal)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Strands %1: %n running pod(s) no longer match their nodeSelector or node affinity (%2)</source>
        <translation>
            <numerusform>Strands %1: %n running pod no longer matches its nodeSelector or node affinity (%2)</numerusform>
            <numerusform>Strands %1: %n running pods no longer match their nodeSelector or node affinity (%2)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Label %1 on %n node(s) is managed by %2, which is likely to put it back (node %3)</source>
        <translation>
            <numerusform>Label %1 on %n node is managed by %2, which is likely to put it back (node %3)</numerusform>
            <numerusform>Label %1 on %n nodes is managed by %2, which is likely to put it back (node %3)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n node(s) lose a level label and leave Kueue TAS capacity: %1</source>
        <translation>
            <numerusform>%n node loses a level label and leaves Kueue TAS capacity: %1</numerusform>
            <numerusform>%n nodes lose a level label and leave Kueue TAS capacity: %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n domain(s) split: %1</source>
        <translation>
            <numerusform>%n domain split: %1</numerusform>
            <numerusform>%n domains split: %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n domain(s) merged: %1</source>
        <translation>
            <numerusform>%n domain merged: %1</numerusform>
            <numerusform>%n domains merged: %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n label change(s)</source>
        <translation>
            <numerusform>%n label change</numerusform>
            <numerusform>%n label changes</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> on %n node(s)</source>
        <translation>
            <numerusform> on %n node</numerusform>
            <numerusform> on %n nodes</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>changed by the plan (%n node(s))</source>
        <translation>
            <numerusform>changed by the plan (%n node)</numerusform>
            <numerusform>changed by the plan (%n nodes)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Apply %n label change(s)</source>
        <translation>
            <numerusform>Apply %n label change</numerusform>
            <numerusform>Apply %n label changes</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The server&apos;s dry run refused %n node(s); nothing was applied:</source>
        <translation>
            <numerusform>The server&apos;s dry run refused %n node; nothing was applied:</numerusform>
            <numerusform>The server&apos;s dry run refused %n nodes; nothing was applied:</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The server&apos;s dry run passed: all %n node patch(es) would apply to %1; nothing was changed.</source>
        <translation>
            <numerusform>The server&apos;s dry run passed: all %n node patch would apply to %1; nothing was changed.</numerusform>
            <numerusform>The server&apos;s dry run passed: all %n node patches would apply to %1; nothing was changed.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n object change(s)</source>
        <translation>
            <numerusform>%n object change</numerusform>
            <numerusform>%n object changes</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> and %n object change(s)</source>
        <translation>
            <numerusform> and %n object change</numerusform>
            <numerusform> and %n object changes</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Applied %n change(s) to %1.</source>
        <translation>
            <numerusform>Applied %n change to %1.</numerusform>
            <numerusform>Applied %n changes to %1.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Applied %n label change(s) to %1.</source>
        <translation>
            <numerusform>Applied %n label change to %1.</numerusform>
            <numerusform>Applied %n label changes to %1.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Applied %n object change(s) to %1.</source>
        <translation>
            <numerusform>Applied %n object change to %1.</numerusform>
            <numerusform>Applied %n object changes to %1.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> on %n node(s) to %1?</source>
        <translation>
            <numerusform> on %n node to %1?</numerusform>
            <numerusform> on %n nodes to %1?</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Apply %n object change(s) to %1?</source>
        <translation>
            <numerusform>Apply %n object change to %1?</numerusform>
            <numerusform>Apply %n object changes to %1?</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>topodeck::ChartsPage</name>
    <message numerus="yes">
        <source>Where the %Ln free GPU(s) are</source>
        <translation>
            <numerusform>Where the %Ln free GPU are</numerusform>
            <numerusform>Where the %Ln free GPUs are</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>topodeck::DetailsPanel</name>
    <message numerus="yes">
        <source>%n domain(s)</source>
        <translation>
            <numerusform>%n domain</numerusform>
            <numerusform>%n domains</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> (%n of its nodes outside the level)</source>
        <translation>
            <numerusform> (%n of its nodes outside the level)</numerusform>
            <numerusform> (%n of its nodes outside the level)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n of its nodes are no longer in the cluster.</source>
        <translation>
            <numerusform>%n of its nodes is no longer in the cluster.</numerusform>
            <numerusform>%n of its nodes are no longer in the cluster.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>topodeck::ExportDialog</name>
    <message numerus="yes">
        <source>Wrote %n file(s):</source>
        <translation>
            <numerusform>Wrote %n file:</numerusform>
            <numerusform>Wrote %n files:</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>topodeck::GangsModel</name>
    <message numerus="yes">
        <source>Its pods are in %n %1 domain(s)</source>
        <translation>
            <numerusform>Its pods are in %n %1 domain</numerusform>
            <numerusform>Its pods are in %n %1 domains</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>; %n would hold it by capacity</source>
        <translation>
            <numerusform>; %n would hold it by capacity</numerusform>
            <numerusform>; %n would hold it by capacity</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> (%n of its nodes have no %1)</source>
        <translation>
            <numerusform> (%n of its nodes has no %1)</numerusform>
            <numerusform> (%n of its nodes have no %1)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>topodeck::HyperNodeEditor</name>
    <message numerus="yes">
        <source>The cluster has %n HyperNode(s). Edits stay in this copy until previewed and applied.</source>
        <translation>
            <numerusform>The cluster has %n HyperNode. Edits stay in this copy until previewed and applied.</numerusform>
            <numerusform>The cluster has %n HyperNodes. Edits stay in this copy until previewed and applied.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n HyperNode(s) from the hierarchy shown.</source>
        <translation>
            <numerusform>%n HyperNode from the hierarchy shown.</numerusform>
            <numerusform>%n HyperNodes from the hierarchy shown.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n HyperNode change(s) sent to the Changes page.</source>
        <translation>
            <numerusform>%n HyperNode change sent to the Changes page.</numerusform>
            <numerusform>%n HyperNode changes sent to the Changes page.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>topodeck::TopologyEditor</name>
    <message numerus="yes">
        <source>%n object change(s) sent to the Changes page.</source>
        <translation>
            <numerusform>%n object change sent to the Changes page.</numerusform>
            <numerusform>%n object changes sent to the Changes page.</numerusform>
        </translation>
    </message>
</context>
</TS>
