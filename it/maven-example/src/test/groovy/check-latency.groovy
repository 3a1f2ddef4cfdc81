/*
 * Licensed under the Apache License, Version 2.0.
 *
 * Fails the build unless the chosen latency percentile of every CSV result file is under the limit.
 * The percentile is nearest-rank over all samples of the run (JMeter's HTML dashboard, by default, only looks at
 * the last 20,000 samples), from the `elapsed` column (ms).
 */
import org.apache.maven.plugin.MojoFailureException

def dir = new File(resultsDir as String)
double pct = (percentile as String).toDouble()
long underMs = (underMs as String).toLong()
if (!(pct > 0 && pct <= 100)) {
    throw new MojoFailureException("latency.percentile=${pct}: give a percentile above 0 and at most 100, e.g. 95")
}
List<File> files = ((dir.listFiles({ f -> f.name.endsWith('.csv') } as FileFilter) ?: []) as List<File>).sort()
if (files.isEmpty()) {
    throw new MojoFailureException("no CSV results in ${dir}: did the jmeter goal run? (resultsFileFormat must be csv)")
}
files.each { File csv ->
    List<Long> elapsed = []
    int column = -1
    csv.eachLine { String line, int n ->
        if (n == 1) {
            // timeStamp and elapsed come before any free-text (possibly quoted) column
            column = line.split(',').toList().indexOf('elapsed')
            if (column < 0) {
                throw new MojoFailureException("${csv.name}: no 'elapsed' column in the header: ${line}")
            }
        } else if (!line.isEmpty()) {
            elapsed << line.split(',', column + 2)[column].toLong()
        }
    }
    if (elapsed.isEmpty()) {
        throw new MojoFailureException("${csv.name}: no samples")
    }
    elapsed.sort()
    int rank = Math.max(1, Math.ceil(pct / 100 * elapsed.size()) as int)
    long value = elapsed[rank - 1]
    String figure = "${csv.name}: p${percentile} latency ${value} ms over ${elapsed.size()} samples"
    if (value >= underMs) {
        throw new MojoFailureException("${figure}, not under latency.under.ms=${underMs}: failing the build")
    }
    log.info("${figure}, under latency.under.ms=${underMs}")
}
