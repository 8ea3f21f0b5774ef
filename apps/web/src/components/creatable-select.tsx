import { Combobox, InputBase, useCombobox } from '@mantine/core';
import { useEffect, useState } from 'react';

/** An existing item (with its id) or a new one to create (id null). */
export interface Choice {
  id: number | null;
  name: string;
}

interface Props {
  label: string;
  placeholder?: string;
  items: { id: number; name: string }[];
  value: Choice | null;
  onChange: (value: Choice | null) => void;
  /** The option that creates a new item named as typed, e.g. `+ Create "Expo"`. */
  createLabel: (name: string) => string;
  nothingFound?: string;
  error?: string;
  required?: boolean;
  disabled?: boolean;
}

const CREATE = '$create';

/** A searchable select that also offers to create an item with the typed name. */
export function CreatableSelect({
  label,
  placeholder,
  items,
  value,
  onChange,
  createLabel,
  nothingFound,
  error,
  required,
  disabled,
}: Props) {
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const [search, setSearch] = useState(value?.name ?? '');

  // The choice can change from outside (a preset source, a new item just created).
  useEffect(() => setSearch(value?.name ?? ''), [value?.name]);

  const typed = search.trim();
  const exact = items.find((i) => i.name.toLowerCase() === typed.toLowerCase());
  const showAll = value !== null && typed === value.name;
  const shown = showAll ? items : items.filter((i) => i.name.toLowerCase().includes(typed.toLowerCase()));

  const choose = (next: Choice | null) => {
    onChange(next);
    setSearch(next?.name ?? '');
    combobox.closeDropdown();
  };

  return (
    <Combobox
      store={combobox}
      onOptionSubmit={(option) => {
        if (option === CREATE) choose({ id: null, name: typed });
        else choose(items.find((i) => String(i.id) === option) ?? null);
      }}
    >
      <Combobox.Target>
        <InputBase
          label={label}
          placeholder={placeholder}
          required={required}
          disabled={disabled}
          error={error}
          value={search}
          rightSection={<Combobox.Chevron />}
          rightSectionPointerEvents="none"
          onChange={(event) => {
            combobox.openDropdown();
            combobox.updateSelectedOptionIndex();
            setSearch(event.currentTarget.value);
          }}
          onClick={() => combobox.openDropdown()}
          onFocus={() => combobox.openDropdown()}
          onBlur={() => {
            combobox.closeDropdown();
            // Typing the exact name of an item picks it; other text is kept only once chosen.
            if (exact && value?.id !== exact.id) choose(exact);
            else setSearch(value?.name ?? '');
          }}
        />
      </Combobox.Target>
      <Combobox.Dropdown>
        <Combobox.Options mah={240} style={{ overflowY: 'auto' }}>
          {shown.map((item) => (
            <Combobox.Option value={String(item.id)} key={item.id} active={value?.id === item.id}>
              {item.name}
            </Combobox.Option>
          ))}
          {typed && !exact && <Combobox.Option value={CREATE}>{createLabel(typed)}</Combobox.Option>}
          {shown.length === 0 && !typed && nothingFound && <Combobox.Empty>{nothingFound}</Combobox.Empty>}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
