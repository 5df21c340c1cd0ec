import { Fragment, type ReactNode } from 'react';

/**
 * A translated sentence with elements in its `{name}` places (an id in <code>, a <strong> name),
 * so word order stays the catalog's in every language while the parts keep their markup.
 */
export function Rich({ text, parts }: { text: string; parts: Readonly<Record<string, ReactNode>> }) {
  return (
    <>
      {text.split(/(\{\w+\})/).map((piece, i) => {
        const name = /^\{(\w+)\}$/.exec(piece)?.[1];
        return <Fragment key={i}>{name !== undefined && name in parts ? parts[name] : piece}</Fragment>;
      })}
    </>
  );
}
