/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.distributed;

import io.stampede.cli.ExitCodes;
import io.stampede.jmeter.JavaRuntime;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * `stampede server create-keystore DIR`: what JMeter's create-rmi-keystore does (keytool, alias rmi), with a random
 * password kept in a file of mode 0600 instead of the well-known "changeit" on command lines.
 */
@Command(
        name = "create-keystore",
        mixinStandardHelpOptions = true,
        description = {
            "Create the keystore for RMI over TLS (alias rmi, as JMeter's create-rmi-keystore) and its random "
                    + "password in DIR/" + CreateKeystoreCommand.KEYSTORE + " and DIR/" + CreateKeystoreCommand.PASSWORD
                    + " (mode 0600; DIR is made 0700 when new). Copy DIR to the controller and every engine, then: "
                    + "`stampede server --ssl-keystore DIR/" + CreateKeystoreCommand.KEYSTORE + " --ssl-password-file DIR/"
                    + CreateKeystoreCommand.PASSWORD + "` and `stampede run PLAN.jmx --remote ... --rmi-keystore DIR/"
                    + CreateKeystoreCommand.KEYSTORE + " --rmi-password-file DIR/" + CreateKeystoreCommand.PASSWORD + "`.",
            ""
        })
public final class CreateKeystoreCommand implements Callable<Integer> {

    static final String KEYSTORE = "rmi_keystore.jks";
    static final String PASSWORD = "rmi_keystore.password";

    @Parameters(paramLabel = "DIR", description = "Folder for the keystore and its password file (new or without them).")
    Path dir;

    @Option(names = "--validity", paramLabel = "DAYS",
            description = "Days the certificate is valid (default: ${DEFAULT-VALUE}; JMeter's script uses 7).")
    int validityDays = 365;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (validityDays < 1) {
            err.println("stampede server create-keystore: --validity " + validityDays + ": give at least 1 day");
            return ExitCodes.BAD_INPUT;
        }
        Path keystore = dir.resolve(KEYSTORE);
        Path passwordFile = dir.resolve(PASSWORD);
        if (Files.exists(keystore) || Files.exists(passwordFile)) {
            err.println("stampede server create-keystore: " + dir + " already has " + KEYSTORE + " or " + PASSWORD
                    + ": give a new folder, or remove them to replace the keystore");
            return ExitCodes.BAD_INPUT;
        }
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            err.println("stampede server create-keystore: " + dir + " is a file: give a folder");
            return ExitCodes.BAD_INPUT;
        }
        Files.createDirectories(dir, PrivateFolder.OWNER_ONLY_DIR);
        Files.createFile(passwordFile, PrivateFolder.OWNER_ONLY_FILE);
        Files.writeString(passwordFile, randomPassword() + "\n", StandardCharsets.UTF_8);
        String failure = keytool(keystore, passwordFile);
        if (failure != null) {
            Files.deleteIfExists(keystore);
            Files.deleteIfExists(passwordFile);
            err.println("stampede server create-keystore: keytool failed: " + failure);
            return ExitCodes.CANNOT_RUN;
        }
        Files.setPosixFilePermissions(keystore, PosixFilePermissions.fromString("rw-------"));
        out.println("stampede server create-keystore: " + keystore + " (alias rmi, valid " + validityDays
                + " days) and its password in " + passwordFile + " (mode 0600)");
        out.println("  copy " + dir + " to the controller and every engine (keep the file modes), then:");
        out.println("  engines:    ./stampede server --bind ADDR --ssl-keystore " + keystore + " --ssl-password-file "
                + passwordFile);
        out.println("  controller: ./stampede run PLAN.jmx --remote ADDR --rmi-keystore " + keystore
                + " --rmi-password-file " + passwordFile);
        return ExitCodes.OK;
    }

    private static String randomPassword() {
        byte[] bytes = new byte[18];
        new SecureRandom().nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** keytool of this Java, reading the password from the file (":file"), so it is on no command line. */
    private String keytool(Path keystore, Path passwordFile) throws IOException, InterruptedException {
        Path keytool = JavaRuntime.current().home().resolve("bin/keytool");
        List<String> cmd = List.of(keytool.toString(), "-genkeypair", "-alias", "rmi", "-keyalg", "RSA",
                "-keysize", "2048", "-validity", Integer.toString(validityDays), "-dname", "CN=rmi",
                "-keystore", keystore.toString(), "-storepass:file", passwordFile.toString(),
                "-keypass:file", passwordFile.toString());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getOutputStream().close();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return "no answer within 60 s";
        }
        return p.exitValue() == 0 && Files.isRegularFile(keystore) ? null : output;
    }
}
